import { registerOutboxHandler } from '../../jobs/outbox.ts';
import { registerPeriodic } from '../../jobs/periodic.ts';
import { registerPoller } from '../../jobs/polls.ts';
import { channelOutbox } from './deliver.ts';
import { refreshProviderTokens } from './oauth.ts';
import { channelPoller } from './poll.ts';

/** Registers the channels' delivery of outbox rows, the pull channels' polls and the renewal of provider tokens with the job runner (modules/setup.ts). */
export function registerChannelOutbox(): void {
  registerOutboxHandler(channelOutbox);
  registerPoller(channelPoller);
  registerPeriodic('provider-tokens', (app) => refreshProviderTokens(app));
}

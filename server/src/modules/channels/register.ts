import { registerOutboxHandler } from '../../jobs/outbox.ts';
import { registerPeriodic } from '../../jobs/periodic.ts';
import { registerPoller } from '../../jobs/polls.ts';
import { channelOutbox } from './deliver.ts';
import { runMissedChatDigests } from './digest.ts';
import { refreshProviderTokens } from './oauth.ts';
import { channelPoller } from './poll.ts';

/**
 * Registers the channels' delivery of outbox rows, the pull channels' polls, the renewal of provider tokens and the
 * daily digest of missed chats with the job runner (modules/setup.ts).
 */
export function registerChannelOutbox(): void {
  registerOutboxHandler(channelOutbox);
  registerPoller(channelPoller);
  // Provider tokens are looked at hourly; the missed-chats digest once a minute (once a day per channel).
  registerPeriodic('provider-tokens', refreshProviderTokens, { everyMs: 3600_000 });
  registerPeriodic('missed-chats-digest', async (app) => void (await runMissedChatDigests(app)), {
    everyMs: 60_000,
  });
}

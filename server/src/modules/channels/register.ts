import { registerOutboxHandler } from '../../jobs/outbox.ts';
import { registerPoller } from '../../jobs/polls.ts';
import { channelOutbox } from './deliver.ts';
import { channelPoller } from './poll.ts';

/** Registers the channels' delivery of outbox rows and the pull channels' polls with the job runner (modules/setup.ts). */
export function registerChannelOutbox(): void {
  registerOutboxHandler(channelOutbox);
  registerPoller(channelPoller);
}

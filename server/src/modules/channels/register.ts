import { registerOutboxHandler } from '../../jobs/outbox.ts';
import { channelOutbox } from './deliver.ts';

/** Registers the channels' delivery of outbox rows with the job runner (modules/setup.ts). */
export function registerChannelOutbox(): void {
  registerOutboxHandler(channelOutbox);
}

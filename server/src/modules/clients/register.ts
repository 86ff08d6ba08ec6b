import { registerStage } from '../../jobs/pipeline.ts';
import { blacklistStage } from './blacklist.ts';

/** The clients module's slot in the conversation pipeline: a blacklisted client's messages stop there. */
export function registerClients(): void {
  registerStage('blacklist', blacklistStage);
}

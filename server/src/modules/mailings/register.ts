import { registerPeriodic } from '../../jobs/periodic.ts';
import { registerStage } from '../../jobs/pipeline.ts';
import { registerPoller } from '../../jobs/polls.ts';
import { mailingRepliesStage } from './replies.ts';
import { mailingSender } from './sender.ts';
import { startDueMailings } from './service.ts';
import { releaseRepliesSeen } from './settings.ts';

/**
 * Mailings plug in: each channel's sender (a 'mailing' session under the channel's lease), the start of scheduled
 * mailings and the pause of those whose channel stopped (every few seconds), and the pipeline's 'mailing_replies'
 * stage.
 */
export function registerMailings(): void {
  registerPoller(mailingSender, 'mailing');
  registerPeriodic('mailings.due', startDueMailings, { everyMs: 5_000 });
  registerStage('mailing_replies', mailingRepliesStage);
  registerPeriodic('mailings.replies-seen', releaseRepliesSeen, { everyMs: 10 * 60_000 });
}

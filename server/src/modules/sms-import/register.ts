import { registerPeriodic } from '../../jobs/periodic.ts';
import { registerPoller } from '../../jobs/polls.ts';
import { importRunner } from './runner.ts';
import { dropStaleWaiting } from './service.ts';

/**
 * SMS import plugs in: each `sms` channel's import session (kind 'import' under the channel's lease), and the
 * clean-up of imports left waiting for their columns.
 */
export function registerSmsImport(): void {
  registerPoller(importRunner, 'import');
  registerPeriodic('sms-imports.stale', dropStaleWaiting, { everyMs: 10 * 60_000 });
}

import { registerPeriodic } from '../../jobs/periodic.ts';
import { runReportRollups } from './rollup.ts';

/** Report rollups fold one batch of history and messages on each job poll. */
export function registerReports(): void {
  registerPeriodic('report-rollups', runReportRollups);
}

import { registerPeriodic } from '../../jobs/periodic.ts';
import { runReportRollups } from './rollup.ts';

/** Report rollups fold history and messages on each job poll (until caught up, bounded). */
export function registerReports(): void {
  registerPeriodic('report-rollups', runReportRollups);
}

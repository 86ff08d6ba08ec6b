import type { MonitoringView } from '@smartconnect/contracts';

/** Query keys of monitoring: a view's live rows and its column settings. */
export const monitoringKeys = {
  rows: (view: MonitoringView) => ['monitoring', 'rows', view] as const,
  settings: (view: MonitoringView) => ['monitoring', 'settings', view] as const,
};

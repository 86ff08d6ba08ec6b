/** Query keys of the reports: a prefix for invalidation, and one per report and request path. */
export const reportKeys = {
  all: ['reports'] as const,
  report: (kind: string, path: string) => ['reports', kind, path] as const,
  dialogs: (own: boolean, path: string) => ['reports', 'dialogs', own, path] as const,
};

/** Query keys of the observability screens. */
export const telemetryKeys = {
  vitals: ['telemetry', 'vitals'] as const,
};

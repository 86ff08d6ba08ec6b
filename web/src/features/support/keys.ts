/** Query keys of the support page. */
export const supportKeys = {
  visitor: ['support', 'visitor'] as const,
};

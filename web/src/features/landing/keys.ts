/** Query keys of the landing page's requests. */
export const landingKeys = {
  requests: ['landing-requests'] as const,
};

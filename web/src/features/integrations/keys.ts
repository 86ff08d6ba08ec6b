/** Query keys of Preferences -> Integrations: the API keys. */
export const apiKeyKeys = {
  all: ['api-keys'] as const,
};

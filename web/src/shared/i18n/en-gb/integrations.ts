/** Preferences → Integrations (issue 34): the page and its API keys section. */
export const integrations = {
  title: 'Integrations',
  subtitle: 'API keys for your own systems and event webhooks that tell them what happens',
};

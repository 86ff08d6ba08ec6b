/** Preferences → Integrations → event webhooks (issue 34). */
export const webhooks = {
  title: 'Вебхуки событий',
};

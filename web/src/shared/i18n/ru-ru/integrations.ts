/** Preferences → Integrations (issue 34): the page and its API keys section. */
export const integrations = {
  title: 'Интеграции',
  subtitle: 'API-ключи для ваших систем и вебхуки событий, которые сообщают им о происходящем',
};

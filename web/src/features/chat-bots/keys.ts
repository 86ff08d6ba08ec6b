/** Query keys of chat bots: the list (also a prefix), one bot, and the choices the editor and transfers offer. */
export const botKeys = {
  all: ['chat-bots'] as const,
  one: (id: string) => ['chat-bots', id] as const,
  published: ['chat-bots', 'published'] as const,
  teams: ['chat-bots', 'teams'] as const,
  users: ['chat-bots', 'users'] as const,
};

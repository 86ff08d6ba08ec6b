/** Query keys of channels: the list (also a prefix), one channel, its automatic replies, OAuth accounts, problems. */
export const channelKeys = {
  all: ['channels'] as const,
  one: (id: string) => ['channels', id] as const,
  autoReplies: (channelId: string) => ['channels', channelId, 'auto-replies'] as const,
  oauthAccounts: (type: string, grant: string) => ['channels', 'oauth-accounts', type, grant] as const,
  /** The query the realtime event `channel.problems` invalidates. */
  problems: ['channel-problems'] as const,
};

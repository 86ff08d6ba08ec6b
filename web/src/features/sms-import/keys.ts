/** Query keys of SMS imports: a prefix for invalidation, the list (of one channel or all), one import. */
export const smsImportKeys = {
  all: ['sms-imports'] as const,
  lists: ['sms-imports', 'list'] as const,
  list: (channelId: string | null) => ['sms-imports', 'list', channelId] as const,
  one: (id: string | null) => ['sms-imports', 'one', id] as const,
};

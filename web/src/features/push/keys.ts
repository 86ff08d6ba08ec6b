/** Query keys of Profile -> Notifications: the user's push settings and subscribed browsers, this browser's subscription. */
export const pushKeys = {
  settings: ['push', 'settings'] as const,
  here: ['push', 'here'] as const,
};

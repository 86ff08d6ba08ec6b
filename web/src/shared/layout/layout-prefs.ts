/**
 * What a user folded away to give the conversation room (issue 36): the side menu (to an icon rail) and the chat
 * center's client panel. Kept in this browser per user id, so another user signing in here starts from their own.
 */
export type LayoutPrefs = { navCollapsed: boolean; clientPanelCollapsed: boolean };

const DEFAULTS: LayoutPrefs = { navCollapsed: false, clientPanelCollapsed: false };
type Store = Pick<Storage, 'getItem' | 'setItem'>;

export const layoutPrefsKey = (userId: string): string => `sc-layout:${userId}`;

export function readLayoutPrefs(userId: string, store: Store = localStorage): LayoutPrefs {
  try {
    const raw = JSON.parse(store.getItem(layoutPrefsKey(userId)) ?? '{}') as Partial<LayoutPrefs>;
    return {
      navCollapsed: raw.navCollapsed === true,
      clientPanelCollapsed: raw.clientPanelCollapsed === true,
    };
  } catch {
    return DEFAULTS;
  }
}

export function writeLayoutPrefs(
  userId: string,
  change: Partial<LayoutPrefs>,
  store: Store = localStorage,
): void {
  store.setItem(layoutPrefsKey(userId), JSON.stringify({ ...readLayoutPrefs(userId, store), ...change }));
}

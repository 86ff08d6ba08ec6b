/** What a key press asks the chat center to do. */
export type WorkspaceAction =
  | 'next'
  | 'previous'
  | 'composer'
  | 'list'
  | 'help'
  | 'take'
  | 'transfer'
  | 'close'
  | 'category';

/** The open chat's commands a letter runs (the top bar registers them): the core loop without the mouse. */
export type ChatCommand = Extract<WorkspaceAction, 'take' | 'transfer' | 'close' | 'category'>;

/** The shortcuts as the help lists them: keys to show, and the i18n key of what they do. */
export const SHORTCUTS: { keys: string[][]; label: string }[] = [
  { keys: [['↓'], ['↑']], label: 'shortcuts.listMove' },
  {
    keys: [
      ['Alt', '↓'],
      ['Alt', '↑'],
    ],
    label: 'shortcuts.anywhereMove',
  },
  { keys: [['R']], label: 'shortcuts.composer' },
  { keys: [['T']], label: 'shortcuts.take' },
  { keys: [['K']], label: 'shortcuts.category' },
  { keys: [['X']], label: 'shortcuts.transfer' },
  { keys: [['C']], label: 'shortcuts.close' },
  { keys: [['Esc']], label: 'shortcuts.backToList' },
  { keys: [['Enter']], label: 'shortcuts.send' },
  { keys: [['Shift', 'Enter']], label: 'shortcuts.newLine' },
  { keys: [['?']], label: 'shortcuts.help' },
];

export type KeyPress = {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  /** Focus is in a text field (typing there must never trigger a letter shortcut). */
  typing: boolean;
  /** Focus is on the chat list or one of its rows. */
  inList: boolean;
  /** Focus is in the message box. */
  inComposer: boolean;
  /**
   * An inline editor is open on the screen (the client's name, a message being edited; marked `data-editing`): what
   * is typed belongs to it even when the focus has fallen to the page, so letters never fire.
   */
  editing?: boolean;
};

/** Letter shortcuts, with the key in the same place on a Russian layout (ЙЦУКЕН). */
const LETTERS: Record<string, WorkspaceAction> = {
  r: 'composer',
  к: 'composer',
  t: 'take',
  е: 'take',
  k: 'category',
  л: 'category',
  x: 'transfer',
  ч: 'transfer',
  c: 'close',
  с: 'close',
};

/**
 * The chat center's shortcut for a key press, or null: ↑/↓ on the list and Alt+↑/↓ anywhere move between chats,
 * R focuses the message box, T takes the open chat, K opens its request category, X its transfer and C its close
 * dialog, Esc in the message box goes back to the list, ? opens the help. Letters never fire
 * while typing or while an inline editor is open, and Ctrl/Meta combinations are left to the browser.
 */
export function shortcutOf(e: KeyPress): WorkspaceAction | null {
  if (e.ctrlKey || e.metaKey) return null;
  const down = e.key === 'ArrowDown';
  const up = e.key === 'ArrowUp';
  if ((down || up) && !e.shiftKey && (e.altKey || (e.inList && !e.typing))) return down ? 'next' : 'previous';
  if (e.altKey) return null;
  if (e.key === 'Escape' && e.inComposer) return 'list';
  if (e.typing || e.editing) return null;
  if (e.key === '?') return 'help';
  return LETTERS[e.key.toLowerCase()] ?? null;
}

/** The chat `delta` rows from `current` in the list (the first or last when none is open), or null at an end. */
export function neighbour(ids: readonly string[], current: string | null, delta: 1 | -1): string | null {
  if (ids.length === 0) return null;
  const at = current ? ids.indexOf(current) : -1;
  if (at === -1) return delta === 1 ? ids[0] : ids[ids.length - 1];
  return ids[at + delta] ?? null;
}

/** Where to go when a chat leaves the operator's hands (transferred, closed): the next chat, else the one before. */
export function afterLeaving(ids: readonly string[], leaving: string): string | null {
  const at = ids.indexOf(leaving);
  if (at === -1) return ids[0] ?? null;
  return ids[at + 1] ?? ids[at - 1] ?? null;
}

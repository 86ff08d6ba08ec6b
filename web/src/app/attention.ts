import type { ChatDto, MessageDto } from '@smartconnect/contracts';
import type { RealtimeEvent } from '../shared/realtime/client.ts';

/**
 * What an operator wants to be told of a new chat or message: a sound (on until they turn it off: a new chat must not
 * go unheard, issue 36) and a desktop notification (on once the browser allows it: the chat center asks once).
 */
export type AttentionPrefs = { sound: boolean; desktop: boolean };

const PREFS_KEY = 'sc-attention';
const ASKED_KEY = 'sc-attention-asked';
type Store = Pick<Storage, 'getItem' | 'setItem'>;

export function readAttentionPrefs(store: Store = localStorage): AttentionPrefs {
  try {
    const raw = JSON.parse(store.getItem(PREFS_KEY) ?? '{}') as Partial<AttentionPrefs>;
    return { sound: raw.sound !== false, desktop: raw.desktop === true };
  } catch {
    return { sound: true, desktop: false };
  }
}

/** Whether the chat center has asked this browser once to allow desktop notifications (asked or answered). */
export const notificationsAsked = (store: Store = localStorage): boolean => store.getItem(ASKED_KEY) === '1';
export const markNotificationsAsked = (store: Store = localStorage): void => store.setItem(ASKED_KEY, '1');

export function writeAttentionPrefs(prefs: AttentionPrefs, store: Store = localStorage): void {
  store.setItem(PREFS_KEY, JSON.stringify(prefs));
}

/** Something the operator should notice: a new chat for them, or a client's message, in a chat they do not look at. */
export type Attention = {
  chatId: string;
  kind: 'newChat' | 'assigned' | 'message';
  /** The client's name when known (the event, or the chat as the screens hold it). */
  client: string | null;
  /** What the client wrote, when the event carries it. */
  text: string | null;
};

export type AttentionContext = {
  userId: string;
  /** The chat open on the screen, if any. */
  openChatId: () => string | null;
  /** The tab is in the background (another tab or window is in front). */
  hidden: () => boolean;
  /** The chat as the screens already hold it (undefined when they do not). */
  chatOf: (chatId: string) => { client: { name: string }; operator: { id: string } | null } | undefined;
  /** The user sees every chat (AUTHORITY_ALL_CHATS): messages of chats they do not handle are not theirs to notice. */
  seesAll: boolean;
};

/**
 * Whether an event deserves the operator's attention, and what to say: a client message (not a reply, not an
 * internal note) in a chat that is not someone else's, a new chat in their queue, or a chat given to them
 * (assigned, transferred). Nothing for the chat they are looking at in a visible tab.
 */
export function attentionOf(event: RealtimeEvent, ctx: AttentionContext): Attention | null {
  let found: Attention | null = null;
  if (event.type === 'message.created') {
    const m = event.payload as MessageDto;
    const chat = ctx.chatOf(m.chatId);
    const others = chat ? !!chat.operator && chat.operator.id !== ctx.userId : ctx.seesAll;
    if (m.direction === 'in' && !m.internal && !others)
      found = { chatId: m.chatId, kind: 'message', client: chat?.client.name ?? null, text: m.text };
  } else if (event.type === 'chat.created') {
    const c = event.payload as ChatDto;
    if (c.status === 'waiting')
      found = { chatId: c.id, kind: 'newChat', client: c.client.name, text: c.lastMessage?.text ?? null };
  } else if (event.type === 'chat.assigned' || event.type === 'chat.transferred') {
    const c = event.payload as ChatDto;
    if (c.status === 'in_progress' && c.operator?.id === ctx.userId)
      found = { chatId: c.id, kind: 'assigned', client: c.client.name, text: c.lastMessage?.text ?? null };
  }
  if (!found) return null;
  if (found.chatId === ctx.openChatId() && !ctx.hidden()) return null;
  return found;
}

type Effects = {
  prefs: () => AttentionPrefs;
  /** The in-app toast (always). */
  toast: (a: Attention) => void;
  sound: () => void;
  /** The system notification (only while the tab is hidden, when allowed). */
  desktop: (a: Attention) => void;
  now?: () => number;
};

/** A chat's first message comes with its chat.created: one alert for both, and one sound per chat per burst. */
const QUIET_MS = 3_000;

/**
 * Tells the operator of what needs them (attentionOf): a toast each time, a sound and a desktop notification (when
 * the tab is hidden) if they asked for them, at most once per chat in QUIET_MS.
 */
export function attention(ctx: AttentionContext, fx: Effects) {
  const now = fx.now ?? Date.now;
  const last = new Map<string, number>();
  return {
    onEvent(event: RealtimeEvent): Attention | null {
      const a = attentionOf(event, ctx);
      if (!a) return null;
      const t = now();
      const recent = (last.get(a.chatId) ?? Number.NEGATIVE_INFINITY) > t - QUIET_MS;
      last.set(a.chatId, t);
      fx.toast(a);
      if (recent) return a;
      const prefs = fx.prefs();
      if (prefs.sound) fx.sound();
      if (prefs.desktop && ctx.hidden()) fx.desktop(a);
      return a;
    },
  };
}

let audio: AudioContext | null = null;

/** A short two-note chime made on the spot (no audio file to fetch); silent where the browser refuses sound. */
export function playChime(): void {
  try {
    audio ??= new AudioContext();
    const ctx = audio;
    void ctx.resume().catch(() => undefined);
    const start = ctx.currentTime;
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      const at = start + i * 0.14;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.3);
    }
  } catch {
    // No audio here: the toast and the title still tell.
  }
}

import {
  type ChatTypingPayload,
  TYPING_REPEAT_MS,
  TYPING_SIGNAL_MS,
} from '@smartconnect/contracts/constants';
import { useCallback, useRef, useSyncExternalStore } from 'react';
import { post } from '../../shared/api/client.ts';

/** Chats whose client is writing now: chat id -> until when (a signal holds TYPING_SIGNAL_MS unless repeated). */
const clientTyping = new Map<string, number>();
const listeners = new Set<() => void>();
const changed = () => {
  for (const l of listeners) l();
};

/** A `chat.typing` signal from the realtime socket (the client's; an operator's shows to the client only). */
export function noteTyping(p: ChatTypingPayload, now = Date.now()): void {
  if (p.by !== 'client') return;
  clientTyping.set(p.chatId, now + TYPING_SIGNAL_MS);
  changed();
  setTimeout(changed, TYPING_SIGNAL_MS + 50);
}

/** The client of a message arriving stops "typing" at once. */
export function clearTyping(chatId: string): void {
  if (clientTyping.delete(chatId)) changed();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Whether the chat's client is writing now. */
export function useClientTyping(chatId: string): boolean {
  return useSyncExternalStore(subscribe, () => (clientTyping.get(chatId) ?? 0) > Date.now());
}

/**
 * What the composer calls on each keystroke: tells the chat (its client and colleagues) that the operator is writing,
 * at most every TYPING_REPEAT_MS; nothing is sent while `enabled` is false (not the operator's chat, a note).
 */
export function useTypingSender(chatId: string, enabled: boolean): () => void {
  // The last signal's chat and time: another chat signals at once.
  const last = useRef({ chatId: '', at: 0 });
  return useCallback(() => {
    const now = Date.now();
    if (!enabled || (last.current.chatId === chatId && now - last.current.at < TYPING_REPEAT_MS)) return;
    last.current = { chatId, at: now };
    void post(`/api/chats/${chatId}/typing`).catch(() => undefined);
  }, [chatId, enabled]);
}

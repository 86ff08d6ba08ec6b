import type { Attachment, MessageDto } from '@smartconnect/contracts';
import { useSyncExternalStore } from 'react';
import { post } from '../../../shared/api/client.ts';

/**
 * A message the operator sent that the server has not answered yet, or refused: shown at once, retried by hand.
 * `localId` travels as the send's `clientKey`, so a Retry after a lost answer never stores the message twice.
 */
export type Outgoing = {
  localId: string;
  chatId: string;
  text: string;
  internal: boolean;
  attachments: Attachment[];
  state: 'sending' | 'failed';
  at: string;
};

const EMPTY: Outgoing[] = [];
let byChat = new Map<string, Outgoing[]>();
const listeners = new Set<() => void>();

function set(chatId: string, fn: (list: Outgoing[]) => Outgoing[]) {
  const next = fn(byChat.get(chatId) ?? EMPTY);
  byChat = new Map(byChat);
  if (next.length) byChat.set(chatId, next);
  else byChat.delete(chatId);
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The chat's unsent messages, oldest first (kept across chat switches while the page lives). */
export function useOutbox(chatId: string): Outgoing[] {
  return useSyncExternalStore(subscribe, () => byChat.get(chatId) ?? EMPTY);
}

/** 32 random hex digits (crypto.randomUUID needs a secure context; getRandomValues does not). */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `m${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

async function deliver(o: Outgoing, onSent: (m: MessageDto) => void) {
  try {
    const m = await post<MessageDto>(`/api/chats/${o.chatId}/messages`, {
      text: o.text,
      internal: o.internal,
      attachments: o.attachments,
      clientKey: o.localId,
    });
    // The server's message takes the place of the pending one in the same render.
    onSent(m);
    set(o.chatId, (list) => list.filter((x) => x.localId !== o.localId));
  } catch {
    set(o.chatId, (list) => list.map((x) => (x.localId === o.localId ? { ...x, state: 'failed' } : x)));
  }
}

/** Shows the message at once and sends it; a failure leaves it marked 'Not sent' with Retry and Discard. */
export function sendOutgoing(
  input: Pick<Outgoing, 'chatId' | 'text' | 'internal' | 'attachments'>,
  onSent: (m: MessageDto) => void,
): void {
  const o: Outgoing = {
    ...input,
    localId: newKey(),
    state: 'sending',
    at: new Date().toISOString(),
  };
  set(o.chatId, (list) => [...list, o]);
  void deliver(o, onSent);
}

export function retryOutgoing(o: Outgoing, onSent: (m: MessageDto) => void): void {
  const again = { ...o, state: 'sending' as const };
  set(o.chatId, (list) => list.map((x) => (x.localId === o.localId ? again : x)));
  void deliver(again, onSent);
}

export function discardOutgoing(o: Outgoing): void {
  set(o.chatId, (list) => list.filter((x) => x.localId !== o.localId));
}

import { useEffect, useRef } from 'react';

type Listener = (chatId: string, text: string) => void;
const listeners = new Set<Listener>();

/** Puts text into the open chat's message box at its cursor (the side panel's knowledge base uses it). */
export function insertIntoComposer(chatId: string, text: string) {
  for (const l of listeners) l(chatId, text);
}

/** The message box of `chatId` takes what `insertIntoComposer` sends it. */
export function useComposerInsert(chatId: string, insert: (text: string) => void) {
  const latest = useRef(insert);
  latest.current = insert;
  useEffect(() => {
    const l: Listener = (id, text) => {
      if (id === chatId) latest.current(text);
    };
    listeners.add(l);
    return () => {
      listeners.delete(l);
    };
  }, [chatId]);
}

import { useEffect, useRef, useState } from 'react';

const KEY = 'sc-draft:';
/** Drafts older than this are dropped on load, so the browser's storage does not fill with old chats. */
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

function read(chatId: string): string {
  try {
    const raw = localStorage.getItem(KEY + chatId);
    if (!raw) return '';
    const { text, at } = JSON.parse(raw) as { text?: unknown; at?: unknown };
    if (typeof text !== 'string' || typeof at !== 'number' || Date.now() - at > MAX_AGE_MS) return '';
    return text;
  } catch {
    return '';
  }
}

function write(chatId: string, text: string) {
  try {
    if (text) localStorage.setItem(KEY + chatId, JSON.stringify({ text, at: Date.now() }));
    else localStorage.removeItem(KEY + chatId);
  } catch {
    // Storage full or off: the draft lives as long as the page.
  }
}

/** The message box's text, kept per chat in the browser (across chat switches and reloads) until it is sent. */
export function useDraft(chatId: string): [string, (text: string) => void] {
  const [state, setState] = useState(() => ({ chatId, text: read(chatId) }));
  const current = state.chatId === chatId ? state.text : read(chatId);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<{ chatId: string; text: string } | null>(null);
  useEffect(() => {
    if (state.chatId !== chatId) setState({ chatId, text: read(chatId) });
  }, [chatId, state.chatId]);
  // Written shortly after typing stops, and at once when the chat changes or the page goes.
  useEffect(() => {
    const flush = () => {
      if (timer.current) clearTimeout(timer.current);
      if (pending.current) write(pending.current.chatId, pending.current.text);
      pending.current = null;
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, []);
  const setText = (text: string) => {
    setState({ chatId, text });
    pending.current = { chatId, text };
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (pending.current) write(pending.current.chatId, pending.current.text);
      pending.current = null;
    }, 300);
  };
  return [current, setText];
}

import { useEffect, useRef } from 'react';
import { type ChatCommand, shortcutOf, type WorkspaceAction } from './keys.ts';

const isTyping = (el: Element | null) =>
  !!el &&
  (el instanceof HTMLInputElement ||
    el instanceof HTMLTextAreaElement ||
    el instanceof HTMLSelectElement ||
    (el instanceof HTMLElement && el.isContentEditable));

/** The chat center's keyboard: one window listener; a key that maps to a shortcut (keys.ts) runs its handler. */
export function useWorkspaceKeys(handlers: Record<WorkspaceAction, () => void>): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const target = e.target instanceof Element ? e.target : null;
      // A dialog (transfer, close, lightbox) owns the keyboard while open.
      if (target?.closest('[role="dialog"]')) return;
      // A combobox (category, filters) keeps its own arrows: Alt+↓ opens its list.
      if (target?.closest('[role="combobox"], [aria-haspopup="listbox"]')) return;
      const typing = isTyping(target);
      const action = shortcutOf({
        key: e.key,
        altKey: e.altKey,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        shiftKey: e.shiftKey,
        typing,
        inList: !!target?.closest('[data-chat-list]'),
        inComposer: typing && !!target?.closest('[data-testid="composer"]'),
        editing: !!document.querySelector('[data-editing]'),
      });
      if (!action) return;
      e.preventDefault();
      latest.current[action]();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

type ChatCommands = Partial<Record<ChatCommand, () => void>>;
let chatCommands: { current: ChatCommands } | null = null;

/** The open chat's top bar registers what T, K, X and C do (only the commands its chat allows now). */
export function useChatCommandsTarget(commands: ChatCommands): void {
  const latest = useRef(commands);
  latest.current = commands;
  useEffect(() => {
    chatCommands = latest;
    return () => {
      if (chatCommands === latest) chatCommands = null;
    };
  }, []);
}

/** Runs a command of the open chat, when it has that command now. */
export const runChatCommand = (command: ChatCommand): void => chatCommands?.current[command]?.();

let composerFocus: { chatId: string; focus: () => void } | null = null;
/** R pressed while the chosen chat's conversation was still being drawn: its message box takes the focus on mount. */
let composerWanted: { chatId: string; until: number } | null = null;

/** The open chat's message box registers how to focus it (R). */
export function useComposerFocusTarget(chatId: string, focus: () => void): void {
  const latest = useRef(focus);
  latest.current = focus;
  useEffect(() => {
    const target = { chatId, focus: () => latest.current() };
    composerFocus = target;
    if (composerWanted?.chatId === chatId && performance.now() < composerWanted.until) {
      composerWanted = null;
      requestAnimationFrame(target.focus);
    }
    return () => {
      if (composerFocus === target) composerFocus = null;
    };
  }, [chatId]);
}

/**
 * Focuses the message box of the chat chosen last. The router draws a chat switch as a transition, so for a moment
 * the screen can still show the previous chat: its box never takes the focus (the text would go to the wrong chat);
 * the chosen chat's box takes it once drawn.
 */
export const focusComposer = (chatId: string | null): void => {
  if (!chatId) return;
  if (composerFocus?.chatId === chatId) {
    composerWanted = null;
    composerFocus.focus();
  } else composerWanted = { chatId, until: performance.now() + 3000 };
};

/**
 * Focuses the list row of a chat once it is rendered (the virtual list scrolls it into view first), or the list's
 * heading when there is no such chat. A dialog still closing (transfer, close) would take the focus back with it:
 * the focus moves once it is gone. When the row is not there yet, the heading takes the focus at once, so the keys
 * pressed meanwhile are shortcuts and never typed into the message box; the row takes it over only while the focus
 * still waits on the heading.
 */
let focusRequests = 0;
export function focusChatRow(chatId: string | null, tries = 90): void {
  const title = () => document.getElementById('chat-center-title');
  // The latest request wins: an earlier one still waiting for its row (a dialog closing) gives up, so it cannot
  // take the focus from a row the keyboard has moved to since.
  const request = ++focusRequests;
  // Whether the focus is still ours to move: after the heading took it, only while it stays there.
  let heldByTitle = false;
  const attempt = (left: number): void => {
    if (request !== focusRequests) return;
    const modal = !!document.querySelector('.mantine-Modal-content');
    const row =
      chatId && !modal
        ? document.querySelector<HTMLElement>(`[data-chat-list] [data-chat-id="${CSS.escape(chatId)}"]`)
        : null;
    const ours =
      !heldByTitle || document.activeElement === title() || document.activeElement === document.body;
    if (!ours) return;
    if (row) {
      row.focus();
      return;
    }
    if (!modal && !heldByTitle) {
      title()?.focus();
      heldByTitle = true;
    }
    if ((modal || chatId) && left > 0) requestAnimationFrame(() => attempt(left - 1));
  };
  // At once when the row is on the screen (a keyboard move), so the next key press starts from it.
  attempt(tries);
}

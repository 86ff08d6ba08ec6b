import { useEffect } from 'react';

const FIND_MS = 15_000;

function scrollParent(el: HTMLElement | null): HTMLElement | null {
  for (let p = el?.parentElement ?? null; p; p = p.parentElement) {
    const style = getComputedStyle(p);
    if (/(auto|scroll)/.test(style.overflowY) && p.scrollHeight > p.clientHeight) return p;
  }
  return null;
}

/**
 * Opens the conversation at one message (`&message=<id>`, from extended search): while the message is not among the
 * loaded pages, the conversation is scrolled to its top (which loads the older page), then the message is scrolled
 * into view and marked for a moment.
 */
export function useScrollToMessage(chatId: string | null, messageId: string | null) {
  useEffect(() => {
    if (!chatId || !messageId) return;
    const end = Date.now() + FIND_MS;
    let timer = 0;
    const step = () => {
      const target = document.querySelector<HTMLElement>(
        `[data-testid="message"][data-id="${CSS.escape(messageId)}"]`,
      );
      if (target) {
        target.scrollIntoView({ block: 'center' });
        target.dataset.found = 'true';
        target.style.outline = '2px solid var(--mantine-color-yellow-6)';
        target.style.outlineOffset = '2px';
        timer = window.setTimeout(() => {
          target.style.outline = '';
        }, 3000);
        return;
      }
      const any = document.querySelector<HTMLElement>('[data-testid="message"]');
      const box = scrollParent(any);
      if (box) box.scrollTop = 0;
      if (Date.now() < end) timer = window.setTimeout(step, 250);
    };
    timer = window.setTimeout(step, 100);
    return () => window.clearTimeout(timer);
  }, [chatId, messageId]);
}

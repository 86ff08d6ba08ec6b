import type { MessageDto } from '@smartconnect/contracts';
import type { RealtimeEvent } from '../shared/realtime/client.ts';
import { blinkTitle } from '../shared/title.ts';

/** A message the client wrote (not an operator's reply, not an internal note). */
export function isNewClientMessage(event: RealtimeEvent): boolean {
  if (event.type !== 'message.created') return false;
  const m = event.payload as MessageDto;
  return m.direction === 'in' && !m.internal;
}

type Page = Pick<Document, 'hidden' | 'addEventListener' | 'removeEventListener'>;

type Options = {
  /** The notification title, read when a message arrives (the language may have changed). */
  title: () => string;
  page?: Page;
  blink?: (title: string) => () => void;
};

/**
 * §2.1/§9: a client message arriving while the tab is hidden makes the title and favicon alternate with
 * 'New message!' every 1000 ms, until the tab is visible again.
 */
export function newMessageAlert({ title, page = document, blink = (text) => blinkTitle(text) }: Options) {
  let stop: (() => void) | null = null;
  const end = () => {
    stop?.();
    stop = null;
  };
  const onVisibility = () => {
    if (!page.hidden) end();
  };
  page.addEventListener('visibilitychange', onVisibility);
  return {
    onEvent(event: RealtimeEvent): void {
      if (stop || !page.hidden || !isNewClientMessage(event)) return;
      stop = blink(title());
    },
    dispose(): void {
      page.removeEventListener('visibilitychange', onVisibility);
      end();
    },
  };
}

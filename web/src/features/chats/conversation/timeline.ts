import type { ChatHistoryDto, ChatHistoryKind, MessageDto } from '@smartconnect/contracts';

/** History kinds shown inline in the conversation (the chat's creation is its first message). */
export const TIMELINE_EVENTS: ReadonlySet<ChatHistoryKind> = new Set([
  'assign',
  'transfer',
  'takeover',
  'rule',
  'close',
  'auto_close',
  'inactivity_close',
  'category_set',
  'category_removed',
  'reopen',
  'redistribution',
  'unassign',
  'rating_requested',
  'rated',
]);

export type TimelineEntry =
  | { type: 'day'; key: string; at: string }
  | { type: 'message'; key: string; message: MessageDto }
  | { type: 'event'; key: string; event: ChatHistoryDto };

/**
 * The conversation as drawn: messages and history events in time order, a day separator before each new day
 * (`dayOf` names a moment's day in the viewer's zone). While older messages are not loaded yet, events older than
 * the first loaded message wait with them (`complete` false).
 */
export function buildTimeline(
  messages: MessageDto[],
  history: ChatHistoryDto[],
  dayOf: (iso: string) => string,
  complete: boolean,
): TimelineEntry[] {
  const from = !complete && messages.length ? messages[0].createdAt : null;
  const events = history.filter((h) => TIMELINE_EVENTS.has(h.kind) && (!from || h.createdAt >= from));
  const items: (
    | { type: 'message'; at: string; key: string; message: MessageDto }
    | { type: 'event'; at: string; key: string; event: ChatHistoryDto }
  )[] = [
    ...messages.map((m) => ({ type: 'message' as const, at: m.createdAt, key: m.id, message: m })),
    ...events.map((e) => ({ type: 'event' as const, at: e.createdAt, key: `h-${e.id}`, event: e })),
  ];
  // Stable: messages keep their order; an event at the same moment as a message comes after it.
  items.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const out: TimelineEntry[] = [];
  let day = '';
  for (const item of items) {
    const d = dayOf(item.at);
    if (d !== day) {
      day = d;
      out.push({ type: 'day', key: `d-${d}`, at: item.at });
    }
    if (item.type === 'message') out.push({ type: 'message', key: item.key, message: item.message });
    else out.push({ type: 'event', key: item.key, event: item.event });
  }
  return out;
}

/** A moment's calendar day in the browser's zone, as YYYY-MM-DD. */
export const localDay = (iso: string): string => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

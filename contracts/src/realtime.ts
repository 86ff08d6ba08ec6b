/** Realtime event types sent over the websocket as JSON frames `{id, type, payload}`. */
export const REALTIME_EVENT_TYPES = [
  'chat.created',
  'chat.updated',
  'chat.assigned',
  'chat.transferred',
  'chat.closed',
  'message.created',
  'message.updated',
  'message.status',
  'presence.changed',
  'counters.changed',
] as const;
export type RealtimeEventType = (typeof REALTIME_EVENT_TYPES)[number];

/** Who may receive an event, always within its organisation: listed users, members of listed teams, holders of a right. */
export type Audience = { userIds?: string[]; teamIds?: string[]; rights?: string[] };

export type RealtimeFrame<P = unknown> = {
  id: string;
  type: RealtimeEventType | 'resync' | 'hello';
  payload: P;
};

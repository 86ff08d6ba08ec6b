/** Realtime event types sent over the websocket as JSON frames `{id, type, payload}`. */
export const REALTIME_EVENT_TYPES = [
  'chat.created',
  'chat.updated',
  'chat.assigned',
  'chat.transferred',
  'chat.closed',
  'chat.takenAway',
  'message.created',
  'message.updated',
  'message.status',
  'presence.changed',
  'counters.changed',
  'access.changed',
  'channel.problems',
] as const;
export type RealtimeEventType = (typeof REALTIME_EVENT_TYPES)[number];

/**
 * Events the log keeps for the event webhooks only (issue 34): written with their change, always with an empty
 * audience, so no socket receives them, and only for an organisation that has a webhook endpoint subscribed to the
 * type; they are not part of the websocket protocol.
 */
export const LOG_ONLY_EVENT_TYPES = [
  'client.created',
  'client.updated',
  'client.merged',
  'rating.created',
  'mailing.finished',
] as const;
export type LogOnlyEventType = (typeof LOG_ONLY_EVENT_TYPES)[number];
/** Every type of the events log: what sockets receive, and what only the log keeps. */
export type LoggedEventType = RealtimeEventType | LogOnlyEventType;

/**
 * Signals: passing states that are not stored and never replayed (a resume does not bring them back). Their frames
 * carry an empty `id`, so they do not move the client's cursor.
 */
export const REALTIME_SIGNAL_TYPES = ['chat.typing'] as const;
export type RealtimeSignalType = (typeof REALTIME_SIGNAL_TYPES)[number];

/** `chat.typing`: someone is writing in a chat (the client, or an operator); it holds for TYPING_SIGNAL_MS. */
export type ChatTypingPayload = { chatId: string; by: 'client' | 'operator'; userId?: string; name?: string };
/** How long a typing signal shows without a new one; senders repeat it at most every TYPING_REPEAT_MS. */
export const TYPING_SIGNAL_MS = 6_000;
export const TYPING_REPEAT_MS = 3_000;

/**
 * Payload of `chat.takenAway`, sent only to the operator a person took a chat from (issue 36): a supervisor took it
 * over, or someone transferred it away. `by` is who did it; `client` the chat's client, for the notice.
 */
export type ChatTakenAwayPayload = {
  chatId: string;
  kind: 'takeover' | 'transfer';
  by: { id: string; name: string };
  client: string;
};

/**
 * Payload of `counters.changed`, sent whenever a chat's move changes In progress / Waiting counts: the chat,
 * its team now, and every team whose queue or counts it touched (its team, and the team it left).
 */
export type CountersChangedPayload = { chatId: string; teamId: string; teamIds: string[] };

/**
 * Payload of `access.changed`, sent to a user whose teams, rights or activity changed (or whose other sessions
 * were ended): every instance applies it to the user's open sockets at once, in event order, and the user's tabs
 * refetch what they show. `keepSessionId` set: every other session of the user has ended (its sockets close).
 * `endedSessionIds`: these sessions ended (a logout), their sockets close and the user's others stay.
 */
export type AccessChangedPayload = {
  userId: string;
  teamIds: string[];
  rights: string[];
  active: boolean;
  keepSessionId?: string | null;
  endedSessionIds?: string[];
};

/**
 * Who may receive an event, always within its organisation: listed users, members of listed teams,
 * holders of a right, or (`all`) every user of the organisation. An empty audience reaches nobody.
 */
export type Audience = { userIds?: string[]; teamIds?: string[]; rights?: string[]; all?: boolean };

/**
 * The websocket protocol of `GET /api/realtime?token=<token>[&lastEventId=<id>]`:
 * - `hello` first: `id` is the cursor to keep (the given lastEventId on a resume, else the current end
 *   of the log); payload `{userId, resumed, instanceId}`.
 * - then, on a resume, every event after lastEventId that the user may see, in id order, then live events.
 *   Every event frame's `id` is the event's id, increasing: keep the highest seen and reconnect with it
 *   as lastEventId (a rare late event, committed after its neighbours were delivered, can come lower).
 * - `resync` instead of the replay when the gap cannot be filled (`reason`: unknown, expired, too_many) or
 *   when it holds events the user may no longer read (`access`: e.g. of a chat transferred away since):
 *   refetch the screens' data, keep `id` as the new cursor; live events follow.
 * - the client may send the text `ping` at any time; the server answers `{type: "pong"}`.
 * A bad or revoked token is refused with HTTP 401 before the upgrade; a session revoked later closes
 * the socket with code REALTIME_CLOSE.unauthorized.
 */
export type RealtimeFrame<P = unknown> = {
  id: string;
  type: RealtimeEventType | RealtimeSignalType | 'resync' | 'hello' | 'pong' | 'topic';
  payload: P;
};

export type RealtimeResyncReason = 'unknown' | 'expired' | 'too_many' | 'access';

/**
 * The website widget's socket (`/api/widget/{channelId}/ws`): at most `perVisitor` open per visitor of a channel and
 * `perAddress` per client address, on each instance (like staff sockets). One past either is refused: it opens and
 * closes at once with `tooManySocketsCode`; the widget then keeps to polling and tries again after `retryAfterMs`.
 */
export const WIDGET_SOCKETS = {
  perVisitor: 10,
  perAddress: 50,
  tooManySocketsCode: 4009,
  retryAfterMs: 60_000,
} as const;

/** Close codes of the realtime socket. Reconnect (with lastEventId) after every one but `unauthorized`. */
export const REALTIME_CLOSE = {
  goingAway: 1001,
  internalError: 1011,
  /** The session was revoked or the user deactivated: sign in again. */
  unauthorized: 4001,
  /** The client read too slowly; reconnect and resume. */
  slowConsumer: 4008,
  /** The user opened more sockets than allowed; this, their oldest, was closed. */
  tooManySockets: 4009,
  /**
   * The instance is shutting down (a restart, a rolling upgrade, a scale-in): reconnect at once, after a random
   * wait of up to `RECONNECT_JITTER_MS` (so that a drained instance's clients do not all arrive in the same
   * millisecond); the load balancer sends the new socket to another instance. Staff and widget sockets alike.
   */
  serviceRestart: 1012,
} as const;

/** The longest random wait before reconnecting after `REALTIME_CLOSE.serviceRestart`. */
export const RECONNECT_JITTER_MS = 1_000;

/**
 * Topics a socket subscribes to by sending `{"type":"subscribe","topic":T,"params":{...}}` (and leaves with
 * `{"type":"unsubscribe","topic":T}`); one subscription per topic and socket, a new one replaces it. The server
 * answers `topic` frames (empty `id`, never replayed): `data` pushed by the topic, or `refused` with an error code
 * (accessDeniedException, optionUnavailableException, validationException) and no further frames. Subscriptions
 * do not survive a reconnect: the client subscribes again after each `hello`.
 */
export const REALTIME_TOPICS = ['monitoring'] as const;
export type RealtimeTopic = (typeof REALTIME_TOPICS)[number];
export type TopicFramePayload<D = unknown> = { topic: RealtimeTopic; data?: D; refused?: string };

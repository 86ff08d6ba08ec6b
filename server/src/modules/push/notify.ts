import type { Audience, ChatDto, MessageDto, PushPayload } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { stateSlot } from '../../context.ts';
import { createSemaphore, type Semaphore } from '../../lib/semaphore.ts';
import type { StoredEvent } from '../../realtime/bus.ts';
import { findChat } from '../conversation/readers.ts';
import * as Q from './queries.ts';
import { pushCounter, sendPush } from './send.ts';

export const PUSH_QUEUE = {
  /** Notifications worked on at once by this process (each sends to its recipients one after another). */
  concurrency: 4,
  /** Notifications waiting beyond this are dropped (counted, logged): a burst never grows memory without bound. */
  maxPending: 1_000,
  /** The longest text of a notification's body. */
  bodyMax: 140,
} as const;

type Queue = { sem: Semaphore; pending: number; inFlight: Set<Promise<void>>; stopped: boolean };

/** This process's notifications in flight, awaited when the app closes. */
const QUEUE = stateSlot<Queue>(
  'push.queue',
  () => ({ sem: createSemaphore(PUSH_QUEUE.concurrency), pending: 0, inFlight: new Set(), stopped: false }),
  async (queue) => {
    queue.stopped = true;
    await Promise.allSettled([...queue.inFlight]);
  },
);

/** Runs `job` in the background within the queue's bounds; the event consumer returns at once. */
function enqueue(app: AppContext, job: () => Promise<void>): void {
  const queue = app.state.of(app, QUEUE);
  if (queue.stopped) return;
  if (queue.pending >= PUSH_QUEUE.maxPending) {
    pushCounter(app).inc({ result: 'dropped' });
    app.log.warn('push: the queue is full, a notification was dropped');
    return;
  }
  queue.pending++;
  const run: Promise<void> = queue.sem
    .run(async () => {
      if (!queue.stopped) await job();
    })
    .catch((err) => app.log.error({ err }, 'push: a notification failed'))
    .finally(() => {
      queue.pending--;
      queue.inFlight.delete(run);
    });
  queue.inFlight.add(run);
}

const TEXTS = {
  eng: { newChat: 'New chat', newMessage: 'New message', attachment: 'Attachment', client: 'Client' },
  rus: { newChat: 'Новый чат', newMessage: 'Новое сообщение', attachment: 'Вложение', client: 'Клиент' },
} as const;
const textsOf = (language: string) => (language === 'rus' ? TEXTS.rus : TEXTS.eng);

const clip = (text: string) =>
  text.length > PUSH_QUEUE.bodyMax ? `${text.slice(0, PUSH_QUEUE.bodyMax - 1)}…` : text;

/** The chat in the web app: its list (by status) with the chat open. */
export const chatPath = (chatId: string, status: string) =>
  `/admin/chats?filter=${status === 'in_progress' ? 'assigned' : status}&chat=${chatId}`;

type Notice = {
  orgId: string;
  kind: 'chats' | 'messages';
  userIds: string[];
  teamIds: string[];
  chatId: string;
  status: string;
  client: string;
  text: string | null;
};

/**
 * Pushes a notice to the subscriptions of its users (and its teams' members) who want its kind, skipping every user
 * with a tab open on any instance (realtime_presence): the open tab tells them itself.
 */
async function deliver(app: AppContext, n: Notice): Promise<void> {
  const subs = await Q.subscriptionsFor(app.db, n.orgId, n.kind, n.userIds, n.teamIds);
  const byUser = new Map<string, typeof subs>();
  for (const s of subs) byUser.set(s.user_id, [...(byUser.get(s.user_id) ?? []), s]);
  for (const list of byUser.values()) {
    // Read with the subscriptions (one statement for every recipient): a socket open on any instance.
    if (list[0].live) {
      pushCounter(app).inc({ result: 'open_tab' });
      continue;
    }
    const t = textsOf(list[0].language);
    const payload: PushPayload = {
      title: n.kind === 'chats' ? t.newChat : t.newMessage,
      body: clip(`${n.client || t.client}: ${n.text?.trim() || t.attachment}`),
      url: chatPath(n.chatId, n.status),
      tag: `chat-${n.chatId}`,
    };
    for (const sub of list) await sendPush(app, sub, payload);
  }
}

const ids = (list: (string | null | undefined)[] | undefined) => (list ?? []).filter((x): x is string => !!x);

/**
 * A new chat for operators, as the workspace tells of it: one waiting in a queue goes to the members of the teams
 * that see that queue (the event's teams), one assigned or transferred goes to its operator.
 */
export function onChat(app: AppContext, event: StoredEvent): void {
  const chat = event.payload as ChatDto;
  const audience = event.audience as Audience;
  let userIds: string[] = [];
  let teamIds: string[] = [];
  if (chat.status === 'waiting' && event.type === 'chat.created') teamIds = ids(audience.teamIds);
  else if (chat.status === 'in_progress' && chat.operator) userIds = [chat.operator.id];
  if (!userIds.length && !teamIds.length) return;
  const notice: Notice = {
    orgId: event.organisationId,
    kind: 'chats',
    userIds,
    teamIds,
    chatId: chat.id,
    status: chat.status,
    client: chat.client.name,
    text: chat.lastMessage?.text ?? null,
  };
  enqueue(app, () => deliver(app, notice));
}

/**
 * A client's message (not an internal note) goes to the operator its chat had when it arrived (the event's users:
 * a chat's events name its operator alone); a message of a chat nobody handles yet tells nobody.
 */
export function onMessage(app: AppContext, event: StoredEvent): void {
  const m = event.payload as MessageDto;
  const userIds = ids((event.audience as Audience).userIds);
  if (m.direction !== 'in' || m.internal || !userIds.length) return;
  enqueue(app, async () => {
    const chat = await findChat(app.db, event.organisationId, m.chatId);
    if (!chat) return;
    await deliver(app, {
      orgId: event.organisationId,
      kind: 'messages',
      userIds,
      teamIds: [],
      chatId: chat.id,
      status: 'in_progress',
      client: chat.client_name,
      text: m.text,
    });
  });
}

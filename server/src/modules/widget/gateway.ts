import {
  type ChatTypingPayload,
  type MessageDto,
  REALTIME_CLOSE,
  WIDGET_SOCKETS,
} from '@smartconnect/contracts';
import { type WebSocket, WebSocketServer } from 'ws';
import { typesWith } from '../../channels/registry.ts';
import { type AppContext, stateSlot } from '../../context.ts';
import type { Signal, StoredEvent } from '../../realtime/bus.ts';
import { clientTyping } from '../chats/typing.ts';
import * as Q from './queries.ts';
import { history, presentWidgetMessage, type WidgetChannel } from './service.ts';

/** Frames the server sends a widget: a message (new or changed), the messages since a resume, a rating request, pong. */
export type WidgetFrame =
  | { type: 'message'; message: ReturnType<typeof presentWidgetMessage> }
  | { type: 'history'; items: ReturnType<typeof presentWidgetMessage>[] }
  | { type: 'rating'; rating: { uuid: string; text: string } | null }
  | { type: 'typing'; name: string | null }
  | { type: 'pong' };

type Hub = {
  wss: WebSocketServer;
  /** `${channelId} ${visitorId}` -> that visitor's open sockets on this instance (tabs). */
  sockets: Map<string, Set<WebSocket>>;
  /** client address -> how many widget sockets it holds open on this instance (any visitor, any channel). */
  addresses: Map<string, number>;
  /** chat id -> its visitor key ('' for chats of other channels), learnt on the first event of each chat. */
  chats: Map<string, string>;
  /** The instance is shutting down: open sockets were told to reconnect elsewhere, new ones are told at once. */
  draining: boolean;
  stop: () => void;
};

/** This instance's widget sockets, closed with the app (drainWidgetHub closes them earlier, on HTTP close). */
const HUB = stateSlot<Hub>('widget.hub', makeHub, (hub) => hub.stop());
const keyOf = (channelId: string, visitorId: string) => `${channelId} ${visitorId}`;

/**
 * The widgets' sockets on this instance. Operators' messages reach a visitor from the event bus (so a message
 * committed on another instance arrives too); what a socket missed while it was away it reads from the database
 * when it comes back (`after`), so a drop loses nothing.
 */
const hubOf = (app: AppContext): Hub => app.state.of(app, HUB);

function makeHub(app: AppContext): Hub {
  let hub: Hub | undefined;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 });
  const sockets = new Map<string, Set<WebSocket>>();
  const addresses = new Map<string, number>();
  const chats = new Map<string, string>();
  const unsubscribe = app.bus.subscribe((event) => {
    if (!sockets.size) return;
    void forward(app, hub as Hub, event).catch((err) => app.log.warn({ err }, 'widget event not forwarded'));
  });
  const unsignal = app.bus.onSignal((signal) => {
    if (!sockets.size) return;
    void forwardTyping(app, hub as Hub, signal).catch((err) => app.log.warn({ err }, 'typing not forwarded'));
  });
  hub = {
    wss,
    sockets,
    addresses,
    chats,
    draining: false,
    stop: () => {
      unsubscribe();
      unsignal();
      for (const set of sockets.values()) for (const ws of set) ws.terminate();
      wss.close();
    },
  };
  return hub;
}

/**
 * The instance is shutting down (HTTP close, before it waits for connections): every widget socket is closed with
 * 1012 so the widget reconnects at once (to another instance behind the balancer) and resumes from its last message;
 * sockets still being accepted get the same. Without it the HTTP close would wait for the visitors to leave.
 */
export function drainWidgetHub(app: AppContext): void {
  const hub = app.state.peek(HUB);
  if (!hub) return;
  hub.draining = true;
  for (const set of hub.sockets.values())
    for (const ws of set) ws.close(REALTIME_CLOSE.serviceRestart, 'server restarting');
}

async function visitorOfChat(app: AppContext, hub: Hub, chatId: string): Promise<string> {
  let key = hub.chats.get(chatId);
  if (key === undefined) {
    const v = await Q.chatVisitor(app.db, chatId, typesWith('visitorWidget'));
    key = v ? keyOf(v.channel_id, v.external_id) : '';
    if (hub.chats.size > 50_000) hub.chats.clear();
    hub.chats.set(chatId, key);
  }
  return key;
}

async function forward(app: AppContext, hub: Hub, event: StoredEvent) {
  if (event.type !== 'message.created' && event.type !== 'message.updated' && event.type !== 'message.status')
    return;
  const m = event.payload as Partial<MessageDto> & { messageId?: string };
  const chatId = m.chatId;
  const messageId = m.id ?? m.messageId;
  if (!chatId || !messageId || m.internal) return;
  const key = await visitorOfChat(app, hub, chatId);
  const targets = key ? hub.sockets.get(key) : undefined;
  if (!targets?.size) return;
  const [channelId, visitorId] = key.split(' ');
  const row = await Q.visitorMessage(app.db, channelId, visitorId, messageId);
  if (!row) return;
  send(targets, { type: 'message', message: presentWidgetMessage(app, channelId, row) });
}

/** An operator writing in a visitor's chat: that visitor's widgets show it. */
async function forwardTyping(app: AppContext, hub: Hub, signal: Signal) {
  const p = signal.payload as ChatTypingPayload;
  if (signal.type !== 'chat.typing' || p.by !== 'operator') return;
  const key = await visitorOfChat(app, hub, p.chatId);
  const targets = key ? hub.sockets.get(key) : undefined;
  if (targets?.size) send(targets, { type: 'typing', name: p.name ?? null });
}

/** The visitor is writing (the widget says `typing`, at most every few seconds): their open chat's operators see it. */
const lastTyping = new Map<string, number>();
async function visitorTyping(app: AppContext, ch: WidgetChannel, visitorId: string) {
  const key = keyOf(ch.id, visitorId);
  const now = Date.now();
  if (now - (lastTyping.get(key) ?? 0) < 1_000) return;
  if (lastTyping.size > 50_000) lastTyping.clear();
  lastTyping.set(key, now);
  const chat = await Q.openChatOfVisitor(app.db, ch.id, visitorId);
  if (chat) await clientTyping(app, chat.organisation_id, chat.id);
}

function send(targets: Iterable<WebSocket>, frame: WidgetFrame) {
  const data = JSON.stringify(frame);
  for (const ws of targets) if (ws.readyState === ws.OPEN) ws.send(data);
}

/** Sends a frame to every open socket of one visitor on this instance (a rating request, say). */
export function pushToVisitor(
  app: AppContext,
  channelId: string,
  visitorId: string,
  frame: WidgetFrame,
): void {
  const set = app.state.peek(HUB)?.sockets.get(keyOf(channelId, visitorId));
  if (set) send(set, frame);
}

/**
 * Takes over an upgrade request for one visitor: registered first (so nothing committed from now on is missed),
 * then sent what was stored after `after` (the resume), then live frames. `ping` is answered `pong`. One past the
 * visitor's or the address's cap (WIDGET_SOCKETS) is refused: closed at once with its code, the open ones untouched.
 */
export function acceptWidgetSocket(
  app: AppContext,
  ch: WidgetChannel,
  visitorId: string,
  after: string | null,
  req: import('node:http').IncomingMessage,
  address: string,
  onReady: (ws: WebSocket) => Promise<WidgetFrame[]>,
): void {
  const hub = hubOf(app);
  hub.wss.handleUpgrade(req, req.socket, Buffer.alloc(0), (ws) => {
    if (hub.draining) {
      ws.close(REALTIME_CLOSE.serviceRestart, 'server restarting');
      return;
    }
    const key = keyOf(ch.id, visitorId);
    const held = hub.addresses.get(address) ?? 0;
    if ((hub.sockets.get(key)?.size ?? 0) >= WIDGET_SOCKETS.perVisitor || held >= WIDGET_SOCKETS.perAddress) {
      ws.close(WIDGET_SOCKETS.tooManySocketsCode, 'too many open sockets');
      return;
    }
    const set = hub.sockets.get(key) ?? new Set();
    hub.sockets.set(key, set);
    set.add(ws);
    hub.addresses.set(address, held + 1);
    ws.on('close', () => {
      set.delete(ws);
      if (!set.size) hub.sockets.delete(key);
      const left = (hub.addresses.get(address) ?? 1) - 1;
      if (left > 0) hub.addresses.set(address, left);
      else hub.addresses.delete(address);
    });
    ws.on('error', () => ws.terminate());
    ws.on('message', (data) => {
      const text = String(data);
      if (text === 'ping') send([ws], { type: 'pong' });
      else if (text === 'typing')
        void visitorTyping(app, ch, visitorId).catch((err) => app.log.warn({ err }, 'typing not signalled'));
    });
    void (async () => {
      const items = await history(app, ch, visitorId, after);
      send([ws], { type: 'history', items });
      for (const frame of await onReady(ws)) send([ws], frame);
    })().catch((err) => {
      app.log.warn({ err }, 'widget resume failed');
      ws.close(1011, 'resume failed');
    });
  });
}

import type { WidgetConfigDto, WidgetMessageDto } from '@smartconnect/contracts';
import {
  CallError,
  ChatApi,
  type Frame,
  Live,
  type Platform,
  type Profile,
  type Rating,
} from './transport.ts';

export type ChatMessage = WidgetMessageDto;
export type { Profile, Rating };

/** What a chat tells its listeners. */
export type ChatEvents = {
  /** A new message: the customer's own as stored, or an operator's (a bot's) as it arrives. Once per message. */
  message: (message: ChatMessage) => void;
  /** A message already told changed: its status (sent, delivered, read) or text. */
  update: (message: ChatMessage) => void;
  /** An operator is writing (their name when the channel shows it); it fades after a few seconds. */
  typing: (operatorName: string | null) => void;
  /** The operator asks for a rating of the conversation (`null`: the request is gone). */
  rating: (rating: Rating) => void;
  /** The live connection is up (true) or down (false: it reconnects by itself and catches up). */
  connection: (up: boolean) => void;
};

export type ChatOptions = Platform & {
  /** The SmartConnect server, e.g. https://chat.example.com. */
  baseUrl: string;
  /** The channel's id (the channel page shows it). */
  channelId: string;
  /**
   * The token of an earlier session, kept in the app's storage: the same customer and conversation. Without it a
   * new anonymous customer is made on the first `connect`; read `token` afterwards and keep it.
   */
  token?: string;
};

/** A file to send: its bytes as a Blob (React Native and browsers give one; on Node `new Blob([buffer])`). */
export type OutgoingFile = { data: Blob; name: string };

/** How often `typing()` tells the operators at most. */
export const TYPING_EVERY_MS = 3_000;

/**
 * A customer's side of one conversation with a business: the channel's settings, the messages (kept in order, each
 * once), sending text and files, typing both ways, read marks and the rating, live over a websocket that resumes
 * after any drop from the last message it has, so nothing is missed.
 */
export class SmartConnectChat {
  readonly api: ChatApi;
  config: WidgetConfigDto | null = null;
  rating: Rating = null;
  private live: Live | null = null;
  private readonly byId = new Map<string, ChatMessage>();
  private readonly listeners: { [K in keyof ChatEvents]: Set<ChatEvents[K]> } = {
    message: new Set(),
    update: new Set(),
    typing: new Set(),
    rating: new Set(),
    connection: new Set(),
  };
  private lastTyping = 0;

  constructor(opts: ChatOptions) {
    this.api = new ChatApi(opts.baseUrl.replace(/\/$/, ''), opts.channelId, opts);
    this.api.token = opts.token ?? null;
  }

  /** Makes a chat and connects it (`connect`). */
  static async connect(opts: ChatOptions): Promise<SmartConnectChat> {
    const chat = new SmartConnectChat(opts);
    await chat.connect();
    return chat;
  }

  /** The customer's token: keep it to come back to the same conversation. */
  get token(): string | null {
    return this.api.token;
  }

  /** The messages so far, oldest first. */
  get messages(): ChatMessage[] {
    return [...this.byId.values()].sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
    );
  }

  /** Listens to one kind of event; answers a function that stops listening. */
  on<K extends keyof ChatEvents>(event: K, listener: ChatEvents[K]): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  /**
   * Reads the channel's settings, becomes a customer (a new anonymous one unless a token was given), reads the
   * conversation so far and opens the live connection.
   */
  async connect(): Promise<void> {
    this.config = await this.api.config();
    if (!this.api.token) this.api.token = (await this.api.visitor()).token;
    const history = await this.api.history();
    for (const m of history.items) this.receive(m);
    this.setRating(history.rating);
    this.live?.stop();
    this.live = new Live(
      this.api,
      () => this.lastId(),
      (f) => this.onFrame(f),
      (up) => this.emit('connection', up),
    );
    this.live.start();
  }

  /** Sends a message (text, files or both); answers it as stored. A refusal throws a CallError with its code. */
  async send(text: string, files: OutgoingFile[] = []): Promise<ChatMessage> {
    const keys: string[] = [];
    for (const f of files) keys.push((await this.api.upload(f.data, f.name)).key);
    const sent = await this.api.send({ clientMessageId: randomId(), text, files: keys });
    this.receive(sent);
    return sent;
  }

  /** The customer is writing: the operators see it (call it on each keystroke; it tells them every few seconds). */
  typing(): void {
    const now = Date.now();
    if (now - this.lastTyping < TYPING_EVERY_MS) return;
    if (this.live?.typing()) this.lastTyping = now;
  }

  /** Marks the operators' messages read (the customer has seen them). */
  async markRead(): Promise<void> {
    const ids = this.messages.filter((m) => m.direction === 'out' && m.status !== 'read').map((m) => m.id);
    if (ids.length) await this.api.mark(ids.slice(-100), 'read');
  }

  /** Rates the conversation when asked (`rating`): 200 done, 409 already rated, 404 no longer asked. */
  async rate(score: number): Promise<number> {
    if (!this.rating) return 404;
    const status = await this.api.rate(this.rating.uuid, score);
    if (status === 200 || status === 409 || status === 404) this.setRating(null);
    return status;
  }

  /** The customer's own details (all optional): the operators see them on the client's card. */
  async setProfile(profile: Profile): Promise<void> {
    await this.api.profile(profile);
  }

  /** Drops the live connection now (a lost network): it comes back by itself and catches up. */
  dropConnection(): void {
    this.live?.drop();
  }

  /** Closes the live connection for good. */
  close(): void {
    this.live?.stop();
    this.live = null;
  }

  private onFrame(f: Frame): void {
    if (f.type === 'history') for (const m of f.items) this.receive(m);
    else if (f.type === 'message') this.receive(f.message);
    else if (f.type === 'typing') this.emit('typing', f.name);
    else if (f.type === 'rating') this.setRating(f.rating);
  }

  /** A message from the server: new ones are told (an operator's is marked delivered), changed ones updated. */
  private receive(m: ChatMessage): void {
    const known = this.byId.get(m.id);
    if (known && JSON.stringify(known) === JSON.stringify(m)) return;
    this.byId.set(m.id, m);
    if (known) {
      this.emit('update', m);
      return;
    }
    if (m.direction === 'out' && m.status !== 'read' && m.status !== 'delivered')
      void this.api.mark([m.id], 'delivered').catch(() => undefined);
    this.emit('message', m);
  }

  private setRating(r: Rating): void {
    if (r?.uuid === this.rating?.uuid) return;
    this.rating = r;
    this.emit('rating', r);
  }

  private lastId(): string | undefined {
    return this.messages.at(-1)?.id;
  }

  private emit<K extends keyof ChatEvents>(event: K, ...args: Parameters<ChatEvents[K]>): void {
    for (const l of this.listeners[event]) (l as (...a: Parameters<ChatEvents[K]>) => void)(...args);
  }
}

/** A message id of ours (the server dedupes a retried send by it). */
function randomId(): string {
  const c = globalThis.crypto;
  if (c?.randomUUID) return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

export { CallError };

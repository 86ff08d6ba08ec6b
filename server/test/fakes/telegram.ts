import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUpdateQueue, type UpdateQueue } from './telegram-polling.ts';
import {
  type AddFileOptions,
  createUpdateBuilders,
  photoSizes,
  type StoredFile,
  type StoreFileOptions,
  type TgChat,
  type TgMessage,
  type TgReplyMarkup,
  type TgUpdate,
  type TgUser,
  type UpdateBuilders,
  type UpdateContext,
  unixNow,
} from './telegram-updates.ts';

export type * from './telegram-updates.ts';

export type UploadedFile = { name: string; contentType: string; size: number; bytes: Buffer };
/** One Bot API call as received: parameters merged from the query string and the JSON, form or multipart body. */
export type TelegramRequest = {
  method: string;
  token: string;
  httpMethod: string;
  contentType: string;
  params: Record<string, unknown>;
  files: Record<string, UploadedFile>;
};
export type UnexpectedRequest = { httpMethod: string; path: string; reason: string };
export type FailSpec = { status: number; description?: string; retryAfter?: number };
export type WebhookState = {
  url: string;
  secretToken?: string;
  allowedUpdates?: string[];
  dropPendingUpdates: boolean;
  maxConnections: number;
};
export type FakeTelegram = {
  baseUrl: string;
  token: string;
  bot: TgUser;
  requests: TelegramRequest[];
  unexpected: UnexpectedRequest[];
  /** Messages the bot sent (sendMessage, sendPhoto, sendDocument), as returned to the caller. */
  sent: TgMessage[];
  /** Paths of files downloaded through /file/bot<token>/<file_path>. */
  downloads: string[];
  readonly webhook: WebhookState | null;
  updates: UpdateBuilders;
  setBlocked(chatId: number, blocked?: boolean): void;
  /** The next `times` calls of `method` answer this error instead (429 gets retry_after and Retry-After). */
  failNext(method: string, spec: FailSpec, times?: number): void;
  addFile(bytes: Uint8Array, options?: AddFileOptions): string;
  expect: {
    /** From now on a call of any other method is recorded as unexpected (and still answered). */
    only(...methods: string[]): void;
    calls(method: string): TelegramRequest[];
    /** Throws unless `method` was called (exactly `times` times when given); returns the last call. */
    called(method: string, times?: number): TelegramRequest;
  };
  assertNoUnexpected(): void;
  /** Keeps an update for getUpdates, as Telegram does while the bot has no webhook (long polls get it at once). */
  queue(update: TgUpdate): void;
  /** The updates getUpdates has not had confirmed yet, and whether a long poll waits now. */
  readonly polling: Pick<UpdateQueue, 'pending' | 'waiting'>;
  /** POSTs an update as Telegram does, by default to the webhook last set with its secret; returns the status. */
  deliver(update: TgUpdate, url?: string, secret?: string | null): Promise<number>;
  close(): Promise<void>;
};

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
    /** Set when the request was malformed: the call is then also recorded as unexpected. */
    readonly malformed?: string,
    readonly retryAfter?: number,
  ) {
    super(description);
  }
}
const bad = (description: string, malformed?: string) =>
  new ApiError(400, `Bad Request: ${description}`, malformed);
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  500: 'Internal Server Error',
};
const TEXT_LIMIT = 4096;
const CAPTION_LIMIT = 1024;
const DOWNLOAD_LIMIT = 20 * 1024 * 1024;
type Reply = { result: unknown; description?: string };

function str(req: TelegramRequest, name: string): string | undefined {
  const value = req.params[name];
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string'
    ? value
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
}
function json(req: TelegramRequest, name: string, error: string): unknown {
  const value = req.params[name];
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw bad(error, `${req.method}: ${name} is not JSON`);
  }
}
const truthy = (value: string | undefined) => value === 'true' || value === '1';

/** The optional fields of an InlineKeyboardButton: exactly one of them says what the button does. */
const BUTTON_ACTIONS = [
  'url',
  'callback_data',
  'web_app',
  'login_url',
  'switch_inline_query',
  'switch_inline_query_current_chat',
  'switch_inline_query_chosen_chat',
  'copy_text',
  'callback_game',
  'pay',
] as const;

/**
 * reply_markup as the Bot API takes it: a JSON-serialised object (a string in a form or multipart body, an object
 * or a string in a JSON body). An InlineKeyboardMarkup is checked button by button: `text` a String, exactly one
 * optional field, callback_data of 1-64 bytes, url an http(s) or tg link. Reply keyboards are accepted, not echoed.
 */
function replyMarkupOf(req: TelegramRequest): TgReplyMarkup | undefined {
  if (req.params.reply_markup === undefined || req.params.reply_markup === '') return undefined;
  const markup = json(req, 'reply_markup', "can't parse reply keyboard markup JSON object");
  if (typeof markup !== 'object' || markup === null || Array.isArray(markup))
    throw bad("can't parse reply keyboard markup JSON object", 'reply_markup is not an object');
  if (!('inline_keyboard' in markup)) return undefined; // reply keyboards are accepted but not echoed in the Message
  const rows = markup.inline_keyboard;
  if (!Array.isArray(rows) || !rows.every((row) => Array.isArray(row)))
    throw bad('field "inline_keyboard" must be of type Array', 'inline_keyboard is not an array of arrays');
  const isButton = (b: unknown) =>
    typeof b === 'object' && b !== null && 'text' in b && typeof b.text === 'string';
  if (!rows.every((row: unknown[]) => row.every(isButton))) {
    throw bad(
      'can\'t parse inline keyboard button: field "text" must be of type String',
      'malformed inline_keyboard',
    );
  }
  for (const button of (rows as Record<string, unknown>[][]).flat()) {
    const actions = BUTTON_ACTIONS.filter((k) => button[k] !== undefined);
    if (actions.length === 0)
      throw bad(
        "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
        'inline button without action',
      );
    if (actions.length > 1)
      throw bad(
        "can't parse inline keyboard button: exactly one of the optional fields must be used",
        `inline button with ${actions.join(' and ')}`,
      );
    const data = button.callback_data;
    if (data !== undefined) {
      if (typeof data !== 'string')
        throw bad(
          'can\'t parse inline keyboard button: field "callback_data" must be of type String',
          'callback_data is not a string',
        );
      const bytes = Buffer.byteLength(data);
      if (bytes < 1 || bytes > 64) throw bad('BUTTON_DATA_INVALID');
    }
    const url = button.url;
    if (url !== undefined) {
      if (typeof url !== 'string')
        throw bad(
          'can\'t parse inline keyboard button: field "url" must be of type String',
          'url is not a string',
        );
      const parsed = URL.canParse(url) ? new URL(url) : null;
      if (!parsed || !['http:', 'https:', 'tg:'].includes(parsed.protocol))
        throw bad(`inline keyboard button URL '${url}' is invalid: Wrong HTTP URL`);
    }
  }
  return { inline_keyboard: rows as TgReplyMarkup['inline_keyboard'] };
}

function checkParseMode(req: TelegramRequest): void {
  const mode = str(req, 'parse_mode');
  if (mode && !['html', 'markdown', 'markdownv2'].includes(mode.toLowerCase()))
    throw bad('unsupported parse_mode', `parse_mode ${mode}`);
}

function checkText(req: TelegramRequest): string {
  const text = str(req, 'text');
  if (text === undefined) throw bad('message text is empty', `${req.method} without text`);
  if (text.trim() === '') throw bad('message text is empty');
  if (text.length > TEXT_LIMIT) throw bad('message is too long');
  return text;
}

/** Starts a fake Bot API on 127.0.0.1; tests point the adapter at `baseUrl` (TELEGRAM_API_BASE_URL). */
export async function startFakeTelegram(
  options: {
    token?: string;
    username?: string;
    /** Called as getUpdates answers these updates (a bench times from there). */
    onAnswered?: (updates: TgUpdate[]) => void;
  } = {},
): Promise<FakeTelegram> {
  const token = options.token ?? `7351926480:AAE${randomBytes(24).toString('base64url')}`;
  const username = options.username ?? 'smartconnect_test_bot';
  if (!/bot$/i.test(username)) throw new Error(`a bot username must end in "bot": ${username}`);
  const botId = /^\d+:/.test(token) ? Number(token.split(':')[0]) : 7351926480;
  const bot: TgUser = { id: botId, is_bot: true, first_name: 'SmartConnect Test', username };
  const requests: TelegramRequest[] = [];
  const unexpected: UnexpectedRequest[] = [];
  const sent: TgMessage[] = [];
  const downloads: string[] = [];
  const files = new Map<string, StoredFile>();
  const chats = new Map<number, TgChat>();
  const blocked = new Set<number>();
  const messageIds = new Map<number, number>();
  const failures = new Map<string, { spec: FailSpec; remaining: number }>();
  const callbackQueries = new Set<string>();
  let webhook: WebhookState | null = null;
  const updateQueue = createUpdateQueue();
  let allowedOnly: Set<string> | null = null;
  let fileSeq = 0;

  const storeFile = (bytes: Uint8Array, o: StoreFileOptions = {}): StoredFile => {
    const n = fileSeq++;
    const path = o.filePath ?? `${o.folder ?? 'documents'}/file_${n}${o.extension ? `.${o.extension}` : ''}`;
    const file: StoredFile = {
      file_id: `BQACAgIAAxkBAAI${n.toString(36).padStart(4, '0')}${randomBytes(30).toString('base64url')}`,
      file_unique_id: `AgAD${randomBytes(9).toString('base64url')}`,
      file_size: o.fileSize ?? bytes.length,
      file_path: path,
      bytes: Buffer.from(bytes),
      fileName: o.fileName,
      mimeType: o.mimeType,
    };
    files.set(file.file_id, file);
    return file;
  };
  const ctx: UpdateContext = {
    bot,
    storeFile,
    nextMessageId: (chatId) => {
      const next = (messageIds.get(chatId) ?? 0) + 1;
      messageIds.set(chatId, next);
      return next;
    },
    rememberChat: (chat) => chats.set(chat.id, chat),
    callbackQueries,
    setBlocked: (chatId, on) => (on ? blocked.add(chatId) : blocked.delete(chatId)),
  };

  const chatOf = (req: TelegramRequest): TgChat => {
    const raw = str(req, 'chat_id');
    if (!raw) throw bad('chat_id is empty', `${req.method} without chat_id`);
    if (!/^-?\d+$/.test(raw))
      throw bad('chat not found', raw.startsWith('@') ? undefined : `chat_id ${raw} is not an integer`);
    const id = Number(raw);
    if (blocked.has(id))
      throw new ApiError(
        403,
        id > 0 ? 'Forbidden: bot was blocked by the user' : 'Forbidden: bot was kicked from the group chat',
      );
    if (id > 0) return chats.get(id) ?? { id, first_name: 'Ada', type: 'private' };
    return (
      chats.get(id) ?? {
        id,
        title: 'Support group',
        type: String(id).startsWith('-100') ? 'supergroup' : 'group',
      }
    );
  };
  const post = (req: TelegramRequest, chat: TgChat, fields: Partial<TgMessage>): Reply => {
    const markup = replyMarkupOf(req);
    checkParseMode(req);
    const caption = str(req, 'caption');
    if (caption !== undefined && caption.length > CAPTION_LIMIT) throw bad('message caption is too long');
    const message: TgMessage = {
      message_id: ctx.nextMessageId(chat.id),
      from: bot,
      chat,
      date: unixNow(),
      ...fields,
      ...(caption ? { caption } : {}),
      ...(markup ? { reply_markup: markup } : {}),
    };
    sent.push(message);
    return { result: message };
  };
  /** An InputFile: a multipart upload, attach://<field>, a known file_id or an HTTP URL (not fetched). */
  const inputFile = (req: TelegramRequest, field: string): StoredFile => {
    const value = str(req, field);
    const upload =
      req.files[field] ?? (value?.startsWith('attach://') ? req.files[value.slice(9)] : undefined);
    const folder = field === 'photo' ? 'photos' : 'documents';
    if (upload) {
      if (upload.size === 0) throw bad('file must be non-empty');
      const extension = /\.(\w+)$/.exec(upload.name)?.[1];
      return storeFile(upload.bytes, {
        folder,
        extension,
        fileName: upload.name,
        mimeType: upload.contentType,
      });
    }
    if (!value) throw bad(`there is no ${field} in the request`, `${req.method} without ${field}`);
    const known = files.get(value);
    if (known) return known;
    if (!/^https?:\/\/[^/]+/.test(value)) throw bad('wrong file identifier/HTTP URL specified');
    return storeFile(Buffer.alloc(0), {
      folder,
      fileName: new URL(value).pathname.split('/').pop() || 'file',
    });
  };

  const removeWebhook = (): Reply => {
    const wasSet = webhook !== null;
    webhook = null;
    return { result: true, description: wasSet ? 'Webhook was deleted' : 'Webhook is already deleted' };
  };
  const methods: Record<string, (req: TelegramRequest, flag: (reason: string) => void) => Reply> = {
    getMe: () => ({
      result: {
        ...bot,
        can_join_groups: true,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
        can_connect_to_business: false,
        has_main_web_app: false,
      },
    }),
    setWebhook: (req, flag) => {
      const url = str(req, 'url');
      if (url === undefined) flag('setWebhook without url');
      if (!url) return removeWebhook(); // an empty url removes the webhook
      const parsed = URL.canParse(url) ? new URL(url) : null;
      // Telegram wants HTTPS; plain http is let through for loopback so tests can deliver to a local server.
      const local =
        parsed?.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
      if (!parsed || !(parsed.protocol === 'https:' || local))
        throw bad('bad webhook: An HTTPS URL must be provided for webhook');
      const secret = str(req, 'secret_token');
      if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
        throw bad('secret token contains unallowed characters');
      const allowed =
        req.params.allowed_updates === undefined
          ? webhook?.allowedUpdates
          : json(req, 'allowed_updates', "can't parse allowed updates");
      if (allowed !== undefined && !(Array.isArray(allowed) && allowed.every((u) => typeof u === 'string')))
        throw bad("can't parse allowed updates", 'allowed_updates is not an array of strings');
      const maxConnections = Number(str(req, 'max_connections') ?? 40);
      updateQueue.webhookSet();
      webhook = {
        url,
        secretToken: secret,
        allowedUpdates: allowed,
        dropPendingUpdates: truthy(str(req, 'drop_pending_updates')),
        maxConnections,
      };
      return { result: true, description: 'Webhook was set' };
    },
    deleteWebhook: () => removeWebhook(),
    // Answered by the update queue (telegram-polling.ts): listed here so the method is known.
    getUpdates: () => ({ result: [] }),
    getWebhookInfo: () => ({
      result: webhook
        ? {
            url: webhook.url,
            has_custom_certificate: false,
            pending_update_count: 0,
            max_connections: webhook.maxConnections,
            ...(webhook.allowedUpdates ? { allowed_updates: webhook.allowedUpdates } : {}),
          }
        : { url: '', has_custom_certificate: false, pending_update_count: updateQueue.pending.length },
    }),
    getFile: (req) => {
      const fileId = str(req, 'file_id');
      if (!fileId) throw bad('invalid file_id', 'getFile without file_id');
      const file = files.get(fileId);
      if (!file) throw bad('invalid file_id');
      if (file.file_size > DOWNLOAD_LIMIT) throw bad('file is too big');
      const { file_id, file_unique_id, file_size, file_path } = file;
      return { result: { file_id, file_unique_id, file_size, file_path } };
    },
    // https://core.telegram.org/bots/api#sendchataction: the chat, then one of the documented actions.
    sendChatAction: (req) => {
      chatOf(req);
      const action = str(req, 'action');
      const actions =
        'typing upload_photo record_video upload_video record_voice upload_voice upload_document';
      if (!action || ![...actions.split(' '), 'choose_sticker', 'find_location'].includes(action))
        throw bad('wrong parameter action in request', `sendChatAction with action ${action}`);
      return { result: true };
    },
    // chat_id is checked before the content, as Telegram does
    sendMessage: (req) => {
      const chat = chatOf(req);
      return post(req, chat, { text: checkText(req) });
    },
    sendPhoto: (req) => {
      const chat = chatOf(req);
      return post(req, chat, { photo: photoSizes(ctx, inputFile(req, 'photo').bytes) });
    },
    sendDocument: (req) => {
      const chat = chatOf(req);
      const { fileName, mimeType, file_id, file_unique_id, file_size } = inputFile(req, 'document');
      const mime_type = mimeType ?? 'application/octet-stream';
      return post(req, chat, {
        document: { file_name: fileName, mime_type, file_id, file_unique_id, file_size },
      });
    },
    editMessageText: (req) => {
      if (str(req, 'inline_message_id')) return { result: true };
      const chat = chatOf(req);
      const messageId = Number(str(req, 'message_id'));
      if (!messageId) throw bad('message identifier is not specified', 'editMessageText without message_id');
      const text = checkText(req);
      const markup = replyMarkupOf(req);
      const index = sent.findIndex((m) => m.chat.id === chat.id && m.message_id === messageId);
      if (index < 0) throw bad('message to edit not found');
      const current = sent[index];
      if (current.text === undefined) throw bad('there is no text in the message to edit');
      if (current.text === text && JSON.stringify(current.reply_markup) === JSON.stringify(markup)) {
        throw bad(
          'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
        );
      }
      const { reply_markup: _old, ...rest } = current;
      sent[index] = { ...rest, text, edit_date: unixNow(), ...(markup ? { reply_markup: markup } : {}) };
      return { result: sent[index] };
    },
    answerCallbackQuery: (req) => {
      const id = str(req, 'callback_query_id');
      const invalid = 'query is too old and response timeout expired or query ID is invalid';
      if (!id) throw bad(invalid, 'answerCallbackQuery without callback_query_id');
      if (!callbackQueries.delete(id)) throw bad(invalid);
      return { result: true };
    },
  };
  const canonical = new Map(Object.keys(methods).map((m) => [m.toLowerCase(), m]));

  const answer = (
    res: ServerResponse,
    status: number,
    payload: unknown,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(payload));
  };
  const answerError = (res: ServerResponse, { status, description, retryAfter }: ApiError) => {
    const payload = { ok: false, error_code: status, description };
    if (retryAfter === undefined) return answer(res, status, payload);
    answer(
      res,
      status,
      { ...payload, parameters: { retry_after: retryAfter } },
      { 'retry-after': `${retryAfter}` },
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const httpMethod = req.method ?? 'GET';
    const path = url.pathname;
    const shown = path.replace(token, '<token>');
    const flag = (reason: string) => unexpected.push({ httpMethod, path: shown, reason });
    const refuse = (reason: string, status: 401 | 404) => {
      flag(reason);
      answerError(res, new ApiError(status, status === 401 ? 'Unauthorized' : 'Not Found'));
    };
    const body = await readBody(req);
    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(path);
    if (download) {
      const file = [...files.values()].find((f) => f.file_path === decodeURIComponent(download[2]));
      if (decodeURIComponent(download[1]) !== token) return refuse('file download with a wrong token', 401);
      if (!file) return refuse('download of an unknown file', 404);
      downloads.push(file.file_path);
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(file.bytes.length),
      });
      return res.end(file.bytes);
    }
    const call = /^\/bot([^/]+)\/([^/]*)$/.exec(path);
    if (!call) return refuse('not a Bot API path', 404);
    if (!['GET', 'POST'].includes(httpMethod)) return refuse(`HTTP ${httpMethod} is not supported`, 404);
    const contentType = req.headers['content-type'] ?? '';
    const parsed = await parseParams(url, contentType, body).catch((e: Error) => {
      flag(e.message); // answered like Telegram: as if the parameters were missing
      return { params: {}, files: {} };
    });
    const method = canonical.get(call[2].toLowerCase());
    const request: TelegramRequest = {
      method: method ?? call[2],
      token: decodeURIComponent(call[1]),
      httpMethod,
      contentType,
      ...parsed,
    };
    requests.push(request);
    if (request.token !== token) return refuse('wrong bot token', 401);
    if (!method) return refuse(`unknown method ${call[2]}`, 404);
    if (allowedOnly && !allowedOnly.has(method)) flag(`${method} was not expected`);
    const failure = failures.get(method);
    if (failure && failure.remaining-- > 0) {
      const { status, description } = failure.spec;
      const retryAfter = status === 429 ? (failure.spec.retryAfter ?? 1) : undefined;
      const fallback = retryAfter ? `Too Many Requests: retry after ${retryAfter}` : STATUS_TEXT[status];
      return answerError(
        res,
        new ApiError(status, description ?? fallback ?? 'Error', undefined, retryAfter),
      );
    }
    if (method === 'getUpdates') {
      const got = await updateQueue.getUpdates(request.params, webhook !== null, (stop) =>
        res.on('close', () => {
          if (!res.writableEnded) stop();
        }),
      );
      if (got.ok) {
        options.onAnswered?.(got.result);
        return answer(res, 200, { ok: true, result: got.result });
      }
      if (got.malformed) flag(got.malformed);
      return answerError(res, new ApiError(got.status, got.description));
    }
    try {
      const { result, description } = methods[method](request, flag);
      answer(res, 200, { ok: true, result, ...(description ? { description } : {}) });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.malformed) flag(error.malformed);
      answerError(res, error);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      unexpected.push({
        httpMethod: req.method ?? '',
        path: req.url ?? '',
        reason: `fake crashed: ${error.message}`,
      });
      if (!res.headersSent) answerError(res, new ApiError(500, 'Internal Server Error'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const calls = (method: string) => requests.filter((r) => r.method === method);

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    token,
    bot,
    requests,
    unexpected,
    sent,
    downloads,
    get webhook() {
      return webhook;
    },
    updates: createUpdateBuilders(ctx),
    setBlocked: (chatId, on = true) => ctx.setBlocked(chatId, on),
    failNext: (method, spec, times = 1) =>
      failures.set(canonical.get(method.toLowerCase()) ?? method, { spec, remaining: times }),
    addFile: (bytes, options) => storeFile(bytes, options).file_id,
    expect: {
      only: (...list) => {
        allowedOnly = new Set(list);
      },
      calls,
      called: (method, times) => {
        const found = calls(method);
        if (found.length === 0 || (times !== undefined && found.length !== times)) {
          throw new Error(
            `expected ${method} to be called ${times ?? 'at least once'}, got ${found.length} call(s)`,
          );
        }
        return found[found.length - 1];
      },
    },
    assertNoUnexpected: () => {
      if (unexpected.length === 0) return;
      throw new Error(
        `unexpected Telegram requests:\n${unexpected.map((u) => `  ${u.httpMethod} ${u.path}: ${u.reason}`).join('\n')}`,
      );
    },
    queue: (update) => updateQueue.push(update),
    polling: updateQueue,
    deliver: async (update, url = webhook?.url, secret = webhook?.secretToken) => {
      if (!url) throw new Error('deliver() needs a url: no webhook is set');
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (secret) headers['x-telegram-bot-api-secret-token'] = secret;
      const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(update) });
      await res.arrayBuffer();
      return res.status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A long poll still waiting is cut, as a stopping Telegram would.
        server.closeAllConnections();
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Query string, then the body: JSON, urlencoded form or multipart (files kept apart, with their bytes). */
async function parseParams(url: URL, contentType: string, body: Buffer) {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const files: Record<string, UploadedFile> = {};
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (body.length === 0) return { params, files };
  if (type === 'application/json') {
    const value: unknown = JSON.parse(body.toString('utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Error('JSON body is not an object');
    Object.assign(params, value);
  } else if (type === 'application/x-www-form-urlencoded') {
    Object.assign(params, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
  } else if (type === 'multipart/form-data') {
    const form = await new Request('http://fake.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      // A plain Uint8Array is a body under both the DOM and Node typings (the e2e specs use this fake too).
      body: new Uint8Array(body),
    }).formData();
    for (const [name, value] of form) {
      if (typeof value === 'string') params[name] = value;
      else {
        const bytes = Buffer.from(await value.arrayBuffer());
        files[name] = {
          name: value.name,
          contentType: value.type || 'application/octet-stream',
          size: bytes.length,
          bytes,
        };
      }
    }
  } else throw new Error(`body with unsupported content-type ${contentType || '(none)'}`);
  return { params, files };
}

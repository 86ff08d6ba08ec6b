import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliverSigned, readGraphRequest } from './meta.ts';

/**
 * A fake of Meta's WhatsApp Cloud API (Graph API `/{version}/...`), following its documents: Bearer access tokens
 * (a wrong one is OAuthException 190, HTTP 401), unknown ids (code 100), the phone number endpoint, the WABA's
 * subscribed_apps and paged message_templates, media upload (multipart) and download (GET /{media-id} names a
 * URL fetched with the same token), messages with the 24-hour customer service window (error 131047 outside it,
 * templates always allowed), rate limits (130429), and webhooks it POSTs signed with X-Hub-Signature-256.
 */

export type WaRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  auth: string | undefined;
  contentType: string;
  json?: Record<string, unknown>;
  form?: Record<string, string>;
  files?: Record<string, { name: string; type: string; bytes: Buffer }>;
};
export type GraphFail = { status: number; code: number; message: string; details?: string };
export type WaTemplate = {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: Record<string, unknown>[];
};
type StoredMedia = { bytes: Buffer; mimeType: string };

export type FakeWhatsApp = {
  baseUrl: string;
  version: string;
  accessToken: string;
  appSecret: string;
  phoneNumberId: string;
  wabaId: string;
  displayPhoneNumber: string;
  /** The phone number's messaging limit tier as the Cloud API names it (TIER_1K unless a test sets another). */
  messagingLimitTier: string;
  requests: WaRequest[];
  /** Message bodies accepted by POST /{phone-number-id}/messages, with the wamid answered. */
  sent: { wamid: string; body: Record<string, unknown> }[];
  uploads: { id: string; type: string; name: string; bytes: Buffer }[];
  templates: WaTemplate[];
  subscribed: Set<string>;
  /** The fake's time (ms), for the 24-hour window; tests move it with the server's clock. */
  now: () => number;
  /** The next `times` calls whose path ends with `pathEnd` answer this error. */
  failNext(pathEnd: string, fail: GraphFail, times?: number): void;
  addMedia(bytes: Uint8Array, mimeType: string): string;
  /** Records that the client wrote to us now (opens their 24-hour window at the fake). */
  clientWrote(waId: string): void;
  /** A `messages` webhook payload for our phone number with these messages and/or statuses. */
  payload(value: {
    messages?: unknown[];
    statuses?: unknown[];
    contacts?: unknown[];
  }): Record<string, unknown>;
  message(from: string, type: string, body: Record<string, unknown>, id?: string): Record<string, unknown>;
  status(wamid: string, status: string, errors?: unknown[]): Record<string, unknown>;
  /** POSTs a webhook as Meta does, signed with the app secret (or `signature` when given, null for none). */
  deliver(url: string, payload: unknown, signature?: string | null): Promise<number>;
  close(): Promise<void>;
};

const WINDOW_MS = 24 * 3600_000;

export async function startFakeWhatsApp(opts: { now?: () => number } = {}): Promise<FakeWhatsApp> {
  const version = 'v21.0';
  const accessToken = `EAAG${randomBytes(24).toString('hex')}`;
  const appSecret = randomBytes(16).toString('hex');
  const phoneNumberId = '106540352242922';
  const wabaId = '102290129340398';
  const media = new Map<string, StoredMedia>();
  const lastInbound = new Map<string, number>();
  const fails: { pathEnd: string; fail: GraphFail; times: number }[] = [];
  let seq = 0;

  const fake: FakeWhatsApp = {
    baseUrl: '',
    version,
    accessToken,
    appSecret,
    phoneNumberId,
    wabaId,
    displayPhoneNumber: '+1 555-010-0200',
    messagingLimitTier: 'TIER_1K',
    requests: [],
    sent: [],
    uploads: [],
    templates: [],
    subscribed: new Set(),
    now: opts.now ?? (() => Date.now()),
    failNext(pathEnd, fail, times = 1) {
      fails.push({ pathEnd, fail, times });
    },
    addMedia(bytes, mimeType) {
      const id = String(9_000_000_000 + ++seq);
      media.set(id, { bytes: Buffer.from(bytes), mimeType });
      return id;
    },
    clientWrote(waId) {
      lastInbound.set(waId, fake.now());
    },
    payload(value) {
      return {
        object: 'whatsapp_business_account',
        entry: [
          {
            id: wabaId,
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { display_phone_number: '15550100200', phone_number_id: phoneNumberId },
                  ...value,
                },
              },
            ],
          },
        ],
      };
    },
    message(from, type, body, id) {
      lastInbound.set(from, fake.now());
      return {
        from,
        id: id ?? `wamid.HBgL${randomBytes(12).toString('hex').toUpperCase()}`,
        timestamp: String(Math.floor(fake.now() / 1000)),
        type,
        ...body,
      };
    },
    status(wamid, status, errors) {
      const sent = fake.sent.find((s) => s.wamid === wamid);
      return {
        id: wamid,
        status,
        timestamp: String(Math.floor(fake.now() / 1000)),
        recipient_id: sent?.body.to ?? '0',
        ...(errors ? { errors } : {}),
      };
    },
    deliver: (url, payload, signature) => deliverSigned(url, payload, appSecret, signature),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const graphError = (res: ServerResponse, f: GraphFail) =>
    send(res, f.status, {
      error: {
        message: f.message,
        type: f.code === 190 ? 'OAuthException' : 'GraphMethodException',
        code: f.code,
        ...(f.details ? { error_data: { messaging_product: 'whatsapp', details: f.details } } : {}),
        fbtrace_id: randomBytes(8).toString('base64url'),
      },
    });
  const badParam = (res: ServerResponse, what: string) =>
    graphError(res, { status: 400, code: 100, message: `(#100) Invalid parameter`, details: what });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const r: WaRequest = await readGraphRequest(req, url);
    fake.requests.push(r);
    if (r.auth !== `Bearer ${accessToken}`)
      return graphError(res, {
        status: 401,
        code: 190,
        message: 'Invalid OAuth access token - Cannot parse access token',
      });
    const download = url.pathname.match(/^\/download\/(\d+)$/);
    if (download) {
      const m = media.get(download[1] ?? '');
      if (!m) return send(res, 404, { error: 'not found' });
      res.writeHead(200, { 'content-type': m.mimeType, 'content-length': m.bytes.length });
      return res.end(m.bytes);
    }
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== version) return badParam(res, 'unknown version');
    const fail = fails.find((f) => url.pathname.endsWith(f.pathEnd));
    if (fail) {
      if (--fail.times <= 0) fails.splice(fails.indexOf(fail), 1);
      return graphError(res, fail.fail);
    }
    const [, id, edge] = parts;
    if (r.method === 'GET' && id === phoneNumberId && !edge)
      return send(res, 200, {
        id: phoneNumberId,
        display_phone_number: fake.displayPhoneNumber,
        verified_name: 'Shop',
        quality_rating: 'GREEN',
        messaging_limit_tier: fake.messagingLimitTier,
      });
    if (r.method === 'POST' && id === wabaId && edge === 'subscribed_apps') {
      fake.subscribed.add(wabaId);
      return send(res, 200, { success: true });
    }
    if (r.method === 'GET' && id === wabaId && edge === 'message_templates') {
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 25) || 25, 100);
      const after = Number(url.searchParams.get('after') ?? 0) || 0;
      const page = fake.templates.slice(after, after + limit);
      const next = after + limit < fake.templates.length ? String(after + limit) : undefined;
      return send(res, 200, {
        data: page,
        paging: {
          cursors: { before: String(after), after: next ?? String(after + page.length) },
          ...(next
            ? { next: `${fake.baseUrl}/${version}/${wabaId}/message_templates?limit=${limit}&after=${next}` }
            : {}),
        },
      });
    }
    if (r.method === 'POST' && id === phoneNumberId && edge === 'media') {
      const file = r.files?.file;
      if (r.form?.messaging_product !== 'whatsapp' || !file || !r.form.type)
        return badParam(res, 'messaging_product, type and file are required');
      const mid = fake.addMedia(file.bytes, r.form.type);
      fake.uploads.push({ id: mid, type: r.form.type, name: file.name, bytes: file.bytes });
      return send(res, 200, { id: mid });
    }
    if (r.method === 'POST' && id === phoneNumberId && edge === 'messages') {
      const b = r.json ?? {};
      const type = String(b.type ?? 'text');
      if (b.messaging_product !== 'whatsapp' || typeof b.to !== 'string' || !(type in b))
        return badParam(res, 'messaging_product, to and the type object are required');
      const last = lastInbound.get(b.to);
      if (type !== 'template' && (last === undefined || fake.now() - last > WINDOW_MS))
        return graphError(res, {
          status: 400,
          code: 131047,
          message: 'Re-engagement message',
          details:
            'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
        });
      if (type === 'text') {
        const body = (b.text as { body?: string })?.body ?? '';
        if (!body || body.length > 4096) return badParam(res, 'text.body');
      }
      if (type === 'interactive') {
        const why = interactiveProblem(b.interactive as Interactive);
        if (why) return badParam(res, why);
      }
      if (type === 'template') {
        const t = b.template as { name?: string; language?: { code?: string } };
        if (!fake.templates.some((x) => x.name === t?.name && x.language === t.language?.code))
          return graphError(res, {
            status: 404,
            code: 132001,
            message: 'Template name does not exist in the translation',
          });
      }
      const obj = b[type] as { id?: string; link?: string } | undefined;
      if (['image', 'document', 'audio', 'video', 'sticker'].includes(type) && !obj?.id && !obj?.link)
        return badParam(res, `${type}.id or ${type}.link`);
      if (obj?.id && !media.has(obj.id)) return badParam(res, 'unknown media id');
      const wamid = `wamid.HBgL${randomBytes(12).toString('hex').toUpperCase()}`;
      fake.sent.push({ wamid, body: b });
      return send(res, 200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: b.to, wa_id: b.to }],
        messages: [{ id: wamid }],
      });
    }
    if (r.method === 'GET' && id && media.has(id) && !edge) {
      const m = media.get(id) as StoredMedia;
      return send(res, 200, {
        messaging_product: 'whatsapp',
        url: `${fake.baseUrl}/download/${id}`,
        mime_type: m.mimeType,
        sha256: createHash('sha256').update(m.bytes).digest('hex'),
        file_size: m.bytes.length,
        id,
      });
    }
    return badParam(res, `Unsupported ${r.method} request. Object with ID '${id}' does not exist`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, { error: { message: String(err), code: 1 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(text);
}

type Interactive = {
  type?: string;
  body?: { text?: string };
  action?: {
    buttons?: { type?: string; reply?: { id?: string; title?: string } }[];
    button?: string;
    sections?: { title?: string; rows?: { id?: string; title?: string; description?: string }[] }[];
  };
};

/**
 * What the Cloud API refuses in an interactive message (the documented limits,
 * https://developers.facebook.com/docs/whatsapp/cloud-api/messages/interactive-reply-buttons-messages and
 * .../interactive-list-messages): body text 1-1024 characters; reply buttons 1-3, each `type: reply` with an id of
 * 1-256 characters and a title of 1-20, ids and titles unique; a list's button label 1-20 characters, 1-10 sections
 * with 1-10 rows in all, row ids 1-200 characters and unique, row titles 1-24, descriptions up to 72, section titles
 * (up to 24) required when there is more than one section.
 */
function interactiveProblem(i: Interactive | undefined): string | null {
  const len = (s: unknown) => (typeof s === 'string' ? [...s].length : -1);
  if (!i || typeof i !== 'object') return 'interactive is required';
  const body = len(i.body?.text);
  if (body < 1 || body > 1024) return 'interactive.body.text must be 1-1024 characters';
  if (i.type === 'button') {
    const bs = i.action?.buttons ?? [];
    if (bs.length < 1 || bs.length > 3) return 'interactive.action.buttons must have 1-3 buttons';
    for (const x of bs) {
      if (x.type !== 'reply') return 'interactive.action.buttons[].type must be reply';
      const id = len(x.reply?.id);
      if (id < 1 || id > 256) return 'interactive.action.buttons[].reply.id must be 1-256 characters';
      const title = len(x.reply?.title);
      if (title < 1 || title > 20) return 'interactive.action.buttons[].reply.title must be 1-20 characters';
    }
    if (new Set(bs.map((x) => x.reply?.id)).size !== bs.length) return 'button ids must be unique';
    if (new Set(bs.map((x) => x.reply?.title)).size !== bs.length) return 'button titles must be unique';
    return null;
  }
  if (i.type === 'list') {
    const label = len(i.action?.button);
    if (label < 1 || label > 20) return 'interactive.action.button must be 1-20 characters';
    const sections = i.action?.sections ?? [];
    if (sections.length < 1 || sections.length > 10)
      return 'interactive.action.sections must have 1-10 sections';
    const rows = sections.flatMap((x) => x.rows ?? []);
    if (rows.length < 1 || rows.length > 10) return 'a list has 1-10 rows in all';
    for (const x of sections) {
      if (sections.length > 1 && len(x.title) < 1) return 'section title is required with several sections';
      if (len(x.title) > 24) return 'section title must be at most 24 characters';
    }
    for (const r of rows) {
      const id = len(r.id);
      if (id < 1 || id > 200) return 'row id must be 1-200 characters';
      const title = len(r.title);
      if (title < 1 || title > 24) return 'row title must be 1-24 characters';
      if (r.description !== undefined && len(r.description) > 72)
        return 'row description must be at most 72 characters';
    }
    if (new Set(rows.map((r) => r.id)).size !== rows.length) return 'row ids must be unique';
    return null;
  }
  return `interactive.type ${String(i.type)} is not supported`;
}

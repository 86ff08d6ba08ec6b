import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of Meta's Facebook Login and Messenger Platform (Graph API `/{version}/...`), following its documents: the
 * login dialog (`/dialog/oauth` redirects back with `code` and `state`, or `error=access_denied` when the user
 * declines), the code exchange and the long-lived token exchange (`/oauth/access_token`, OAuthException 100/190 on
 * a bad code or token), `/me/accounts` with page tokens and linked Instagram business accounts, a page's
 * `subscribed_apps`, the Send API (`POST /{page-id}/messages`, JSON or multipart `filedata`) with the 24-hour
 * standard messaging window (code 10, subcode 2018278 outside it), rate limits (code 613), attachment CDN URLs,
 * and webhooks it POSTs signed with X-Hub-Signature-256 (the app secret).
 */

export type MetaRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  auth: string | undefined;
  json?: Record<string, unknown>;
  form?: Record<string, string>;
  files?: Record<string, { name: string; type: string; bytes: Buffer }>;
};
export type MetaFail = { status: number; code: number; subcode?: number; message: string; type?: string };

export type FakeMeta = {
  baseUrl: string;
  version: string;
  appId: string;
  appSecret: string;
  pageId: string;
  pageName: string;
  igId: string;
  igUsername: string;
  /** The user token a code exchange hands out (short), and the long-lived one. */
  shortToken: string;
  userToken: string;
  /** Every long-lived user token handed out (renewals included). */
  userTokens: Set<string>;
  pageToken: string;
  /** The user declines the login dialog. */
  refuseLogin: boolean;
  requests: MetaRequest[];
  /** Accepted Send API calls, with the message_id answered. */
  sent: { mid: string; body: Record<string, unknown>; files?: MetaRequest['files'] }[];
  subscribed: Set<string>;
  now: () => number;
  /** User profiles of page-scoped ids (Messenger: first_name, last_name; Instagram: name, username). */
  profiles: Map<string, Record<string, string>>;
  failNext(pathEnd: string, fail: MetaFail, times?: number): void;
  /**
   * A file on the fake's CDN; its URL (with query parameters, as Meta's CDN links have). `path` adds a last path
   * segment (Messenger's file links end in the file's name); `disposition` a Content-Disposition header.
   */
  addCdnFile(bytes: Uint8Array, mimeType: string, opts?: { path?: string; disposition?: string }): string;
  /** A `messaging` webhook payload for the page (object "page") or the Instagram account (object "instagram"). */
  payload(object: 'page' | 'instagram', messaging: unknown[]): Record<string, unknown>;
  /** One customer message event (opens their 24-hour window at the fake). */
  message(
    object: 'page' | 'instagram',
    from: string,
    message: Record<string, unknown>,
  ): Record<string, unknown>;
  /**
   * A delivery or read mark from the customer's app, as the documents show them: Messenger's `message_deliveries`
   * (`delivery: {mids?, watermark}`) and `message_reads` (`read: {watermark}`), Instagram's `messaging_seen`
   * (`read: {mid}`).
   */
  mark(
    object: 'page' | 'instagram',
    from: string,
    mark:
      | { delivery: { mids?: string[]; watermark: number } }
      | { read: { watermark: number } | { mid: string } },
  ): Record<string, unknown>;
  deliver(url: string, payload: unknown, signature?: string | null): Promise<number>;
  close(): Promise<void>;
};

const WINDOW_MS = 24 * 3600_000;

export async function startFakeMeta(opts: { now?: () => number; unref?: boolean } = {}): Promise<FakeMeta> {
  const version = 'v21.0';
  const fails: { pathEnd: string; fail: MetaFail; times: number }[] = [];
  const cdn = new Map<string, { bytes: Buffer; type: string; disposition?: string }>();
  const lastInbound = new Map<string, number>();
  const codes = new Set<string>();
  let seq = 0;
  const fake: FakeMeta = {
    profiles: new Map(),
    baseUrl: '',
    version,
    appId: '1234567890123456',
    appSecret: randomBytes(16).toString('hex'),
    pageId: '101112131415161',
    pageName: 'Shop page',
    igId: '17841400000000001',
    igUsername: 'shop.ig',
    shortToken: `EAAS${randomBytes(20).toString('hex')}`,
    userToken: `EAAL${randomBytes(20).toString('hex')}`,
    userTokens: new Set(),
    pageToken: `EAAP${randomBytes(20).toString('hex')}`,
    refuseLogin: false,
    requests: [],
    sent: [],
    subscribed: new Set(),
    now: opts.now ?? (() => Date.now()),
    failNext(pathEnd, fail, times = 1) {
      fails.push({ pathEnd, fail, times });
    },
    addCdnFile(bytes, mimeType, opts = {}) {
      const id = `f${++seq}`;
      cdn.set(id, { bytes: Buffer.from(bytes), type: mimeType, disposition: opts.disposition });
      return `${fake.baseUrl}/cdn/${id}${opts.path ?? ''}?_nc_cat=1&oh=sig`;
    },
    payload(object, messaging) {
      return {
        object,
        entry: [{ id: object === 'page' ? fake.pageId : fake.igId, time: fake.now(), messaging }],
      };
    },
    message(object, from, message) {
      lastInbound.set(from, fake.now());
      return {
        sender: { id: from },
        recipient: { id: object === 'page' ? fake.pageId : fake.igId },
        timestamp: fake.now(),
        message: { mid: `m_${randomBytes(12).toString('base64url')}`, ...message },
      };
    },
    mark(object, from, mark) {
      return {
        sender: { id: from },
        recipient: { id: object === 'page' ? fake.pageId : fake.igId },
        // Messenger's delivery marks carry no timestamp of their own; read and seen marks do.
        ...('read' in mark && { timestamp: fake.now() }),
        ...mark,
      };
    },
    deliver: (url, payload, signature) => deliverSigned(url, payload, fake.appSecret, signature),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const graphError = (res: ServerResponse, f: MetaFail) =>
    send(res, f.status, {
      error: {
        message: f.message,
        type: f.type ?? 'OAuthException',
        code: f.code,
        ...(f.subcode ? { error_subcode: f.subcode } : {}),
        fbtrace_id: randomBytes(8).toString('base64url'),
      },
    });
  const badToken = (res: ServerResponse) =>
    graphError(res, {
      status: 400,
      code: 190,
      message: 'Invalid OAuth access token - Cannot parse access token',
    });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const r = await readGraphRequest(req, url);
    fake.requests.push(r);
    const q = url.searchParams;
    const cdnFile = url.pathname.match(/^\/cdn\/(\w+)(\/[^/]+)?$/);
    if (cdnFile) {
      const f = cdn.get(cdnFile[1] ?? '');
      if (!f) return send(res, 404, { error: 'not found' });
      res.writeHead(200, {
        'content-type': f.type,
        'content-length': f.bytes.length,
        ...(f.disposition && { 'content-disposition': f.disposition }),
      });
      return res.end(f.bytes);
    }
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== version) return graphError(res, { status: 400, code: 100, message: 'Unknown version' });
    // The login dialog (www.facebook.com): the user logs in and allows, or declines.
    if (parts[1] === 'dialog' && parts[2] === 'oauth') {
      const back = new URL(q.get('redirect_uri') ?? '');
      if (q.get('client_id') !== fake.appId) return send(res, 400, { error: 'Invalid App ID' });
      back.searchParams.set('state', q.get('state') ?? '');
      if (fake.refuseLogin) {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_reason', 'user_denied');
        back.searchParams.set('error_description', 'Permissions error');
      } else {
        const code = randomBytes(16).toString('hex');
        codes.add(`${code} ${q.get('redirect_uri')}`);
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    const fail = fails.find((f) => url.pathname.endsWith(f.pathEnd));
    if (fail) {
      if (--fail.times <= 0) fails.splice(fails.indexOf(fail), 1);
      return graphError(res, fail.fail);
    }
    if (parts[1] === 'oauth' && parts[2] === 'access_token') {
      if (q.get('client_id') !== fake.appId || q.get('client_secret') !== fake.appSecret)
        return graphError(res, { status: 400, code: 1, message: 'Error validating client secret.' });
      if (q.get('grant_type') === 'fb_exchange_token') {
        const given = q.get('fb_exchange_token');
        if (given === fake.shortToken)
          return send(res, 200, {
            access_token: fake.userToken,
            token_type: 'bearer',
            expires_in: 5_183_944,
          });
        if (!given || !fake.userTokens.has(given)) return badToken(res);
        // A long-lived token exchanged again: a new one, valid for another 60 days.
        const renewed = `EAAL${randomBytes(20).toString('hex')}`;
        fake.userTokens.add(renewed);
        return send(res, 200, { access_token: renewed, token_type: 'bearer', expires_in: 5_183_944 });
      }
      const key = `${q.get('code')} ${q.get('redirect_uri')}`;
      if (!codes.delete(key))
        return graphError(res, {
          status: 400,
          code: 100,
          message: 'Invalid verification code format.',
        });
      return send(res, 200, { access_token: fake.shortToken, token_type: 'bearer', expires_in: 5400 });
    }
    const token = r.auth?.replace(/^Bearer /, '') ?? q.get('access_token');
    const [, id, edge] = parts;
    if (r.method === 'GET' && id === 'me' && edge === 'accounts') {
      if (!token || !fake.userTokens.has(token)) return badToken(res);
      return send(res, 200, {
        data: [
          {
            id: fake.pageId,
            name: fake.pageName,
            access_token: fake.pageToken,
            category: 'Shopping',
            tasks: ['MESSAGING', 'MODERATE'],
            instagram_business_account: { id: fake.igId, username: fake.igUsername },
          },
          {
            id: '202122232425262',
            name: 'Page without Instagram',
            access_token: `EAAP${randomBytes(8).toString('hex')}`,
          },
        ],
        paging: { cursors: { before: 'b', after: 'a' } },
      });
    }
    if (id === fake.pageId && edge === 'subscribed_apps') {
      if (token !== fake.pageToken) return badToken(res);
      if (r.method === 'POST') fake.subscribed.add(fake.pageId);
      else if (r.method === 'DELETE') fake.subscribed.delete(fake.pageId);
      return send(res, 200, { success: true });
    }
    // The user profile of a page-scoped id (Messenger / Instagram User Profile API): the fields asked for.
    if (r.method === 'GET' && id && !edge && fake.profiles.has(id)) {
      if (token !== fake.pageToken) return badToken(res);
      const profile = fake.profiles.get(id) ?? {};
      const fields = (q.get('fields') ?? '').split(',').filter(Boolean);
      return send(res, 200, {
        id,
        ...Object.fromEntries(fields.filter((f) => f in profile).map((f) => [f, profile[f]])),
      });
    }
    if (r.method === 'POST' && id === fake.pageId && edge === 'messages') {
      if (token !== fake.pageToken) return badToken(res);
      const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
      const b: Record<string, unknown> = r.json ?? {
        ...r.form,
        recipient: parse(r.form?.recipient),
        message: parse(r.form?.message),
      };
      const to = (b.recipient as { id?: string } | undefined)?.id;
      const message = b.message as {
        text?: string;
        attachment?: { type?: string; payload?: { url?: string } };
      };
      if (!to || !message || (!message.text && !message.attachment))
        return graphError(res, {
          status: 400,
          code: 100,
          message: '(#100) param recipient/message must be non-empty.',
        });
      if (b.messaging_type !== 'RESPONSE')
        return graphError(res, { status: 400, code: 100, message: '(#100) Invalid messaging_type' });
      if (message.attachment && !message.attachment.payload?.url && !r.files?.filedata)
        return graphError(res, { status: 400, code: 100, message: '(#100) Upload attachment failure.' });
      const last = lastInbound.get(to);
      if (last === undefined || fake.now() - last > WINDOW_MS)
        return graphError(res, {
          status: 400,
          code: 10,
          subcode: 2018278,
          message: '(#10) This message is sent outside of allowed window.',
        });
      const mid = `m_${randomBytes(12).toString('base64url')}`;
      fake.sent.push({ mid, body: b, files: r.files });
      return send(res, 200, { recipient_id: to, message_id: mid });
    }
    return graphError(res, {
      status: 400,
      code: 100,
      type: 'GraphMethodException',
      message: `Unsupported ${r.method} request. Object with ID '${id}' does not exist`,
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, { error: { message: String(err), code: 1 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A fake shared by route fixtures lives as long as the test process, never keeping it alive.
  if (opts.unref) server.unref();
  fake.userTokens.add(fake.userToken);
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * POSTs a webhook as Meta does (Messenger Platform, WhatsApp Cloud API): signed with the app secret in
 * X-Hub-Signature-256, or with `signature` when given (null for none). Answers our status.
 */
export async function deliverSigned(
  url: string,
  payload: unknown,
  appSecret: string,
  signature?: string | null,
): Promise<number> {
  const raw = JSON.stringify(payload);
  const sig =
    signature === undefined
      ? `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`
      : signature;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(sig === null ? {} : { 'x-hub-signature-256': sig }) },
    body: raw,
  });
  await res.arrayBuffer();
  return res.status;
}

/** A Graph API request as a fake records it: JSON body, or multipart fields and files. */
export async function readGraphRequest(
  req: IncomingMessage,
  url: URL,
): Promise<MetaRequest & { contentType: string }> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  const contentType = String(req.headers['content-type'] ?? '');
  const r: MetaRequest & { contentType: string } = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    auth: req.headers.authorization,
    contentType,
  };
  if (contentType.startsWith('application/json') && raw.length) r.json = JSON.parse(raw.toString('utf8'));
  if (contentType.startsWith('multipart/form-data')) {
    const form = await new Request('http://fake', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: raw,
    }).formData();
    r.form = {};
    r.files = {};
    for (const [k, v] of form.entries()) {
      if (typeof v === 'string') r.form[k] = v;
      else r.files[k] = { name: v.name, type: v.type, bytes: Buffer.from(await v.arrayBuffer()) };
    }
  }
  return r;
}

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type GeneratedFile, type GeneratedStats, generatedStats, sendGenerated } from './generated-file.ts';
import { createVkLongPoll, type VkLongPoll } from './vk-longpoll.ts';

/**
 * A fake of the VK API for a community bot (https://dev.vk.com/ru/api/api-requests), following its documents:
 * methods at POST /method/{name} with form parameters access_token and v; answers `{response}` or
 * `{error: {error_code, error_msg, request_params}}` with HTTP 200. A wrong token is error 5 (User authorization
 * failed); more than `perSecond` calls in one second error 6 (Too many requests per second); messages.send needs
 * random_id (the same random_id to the same peer is not sent twice: the first message's id is answered) and a
 * peer who allowed the community's messages (else 901). Uploads go through upload servers
 * (photos.getMessagesUploadServer -> POST multipart `photo` -> photos.saveMessagesPhoto; docs.getMessagesUploadServer
 * -> POST `file` -> docs.save). Callback API events are posted with the group id and secret as VK does.
 */
export type VkCall = { method: string; params: Record<string, string> };
export type FakeVk = {
  baseUrl: string;
  token: string;
  /** The community token of another community (groupId + 1, 'Other VK'), valid for groups.* only. */
  otherToken: string;
  groupId: number;
  secret: string;
  confirmation: string;
  calls: VkCall[];
  /** Delivered messages.send calls with the message id answered. */
  sent: { id: number; params: Record<string, string> }[];
  /** Uploaded files by their attachment name (photo-1_5, doc-1_6). */
  uploads: Map<string, { bytes: Buffer; name: string; type: string }>;
  /** Users who allowed the community's messages (writing to it allows them). */
  allowed: Set<number>;
  /** The community token's rights mask (messages 4096, photos 4, docs 131072). */
  mask: number;
  perSecond: number;
  /** Users users.get describes (others are answered as deleted pages). */
  users: Map<number, { first_name: string; last_name: string }>;
  /**
   * OAuth (https://dev.vk.com/ru/api/access-token/authcode-flow-user, .../authcode-flow-community): the app's id and
   * secret; GET /authorize redirects back with a code (or `error=access_denied` when `deny`), GET /access_token makes
   * a user code the user token (scope groups: groups.get) and a community code (group_ids) `access_token_<id>`;
   * a bad code is `{"error":"invalid_grant"}` (HTTP 401).
   */
  appId: string;
  appSecret: string;
  userToken: string;
  deny: boolean;
  /**
   * The Callback API servers added (groups.addCallbackServer) and their settings (groups.setCallbackSettings);
   * groups.deleteCallbackServer removes one.
   */
  callbackServers: {
    id: number;
    url: string;
    title: string;
    secretKey: string;
    settings: Record<string, string>;
  }[];
  /** The community's Bots Long Poll API (vk-longpoll.ts). */
  longPoll: VkLongPoll;
  /** The next `times` calls of `method` fail with `code`; `then` runs as the last of them is answered. */
  failNext(method: string, code: number, message: string, times?: number, then?: () => void): void;
  addMedia(bytes: Uint8Array, contentType: string): string;
  /** A large file made up as it is downloaded (never held whole); its URL. */
  addGeneratedMedia(file: GeneratedFile): string;
  /** What was sent of generated files. */
  generated: GeneratedStats;
  /** POSTs a Callback API event (group_id, secret and event_id filled in unless given); answers status and text. */
  deliver(url: string, event: Record<string, unknown>): Promise<{ status: number; text: string }>;
  /** A message_new event from a user (who thereby allows the community's messages). */
  messageNew(fromId: number, message: Record<string, unknown>): Record<string, unknown>;
  close(): Promise<void>;
};

export async function startFakeVk(): Promise<FakeVk> {
  const token = `vk1.a.${randomBytes(40).toString('hex')}`;
  const media = new Map<string, { bytes: Buffer; type: string }>();
  const generatedFiles = new Map<string, GeneratedFile>();
  const fails: { method: string; code: number; message: string; times: number; then?: () => void }[] = [];
  const byRandom = new Map<string, number>();
  const pending = new Map<string, { kind: 'photo' | 'doc'; bytes: Buffer; name: string; type: string }>();
  let nextId = 100;
  let nextServerId = 1;
  let windowStart = 0;
  let inWindow = 0;
  const fake: FakeVk = {
    users: new Map(),
    baseUrl: '',
    token,
    otherToken: `vk1.a.other${randomBytes(20).toString('hex')}`,
    groupId: 218_000_000 + Math.floor(Math.random() * 1000),
    secret: `s${randomBytes(8).toString('hex')}`,
    confirmation: randomBytes(4).toString('hex'),
    calls: [],
    sent: [],
    uploads: new Map(),
    allowed: new Set(),
    mask: 4096 | 4 | 131072,
    perSecond: 20,
    appId: String(51_000_000 + Math.floor(Math.random() * 1000)),
    appSecret: randomBytes(10).toString('hex'),
    userToken: `vk1.a.u${randomBytes(40).toString('hex')}`,
    deny: false,
    callbackServers: [],
    longPoll: createVkLongPoll(() => fake.groupId),
    failNext(method, code, message, times = 1, then) {
      fails.push({ method, code, message, times, then });
    },
    addMedia(bytes, type) {
      const id = randomBytes(8).toString('hex');
      media.set(id, { bytes: Buffer.from(bytes), type });
      return `${fake.baseUrl}/media/${id}`;
    },
    addGeneratedMedia(file) {
      const id = randomBytes(8).toString('hex');
      generatedFiles.set(id, file);
      return `${fake.baseUrl}/media/${id}`;
    },
    generated: generatedStats(),
    async deliver(url, event) {
      const body = {
        group_id: fake.groupId,
        event_id: randomBytes(20).toString('hex'),
        v: '5.199',
        secret: fake.secret,
        ...event,
      };
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    },
    messageNew(fromId, message) {
      fake.allowed.add(fromId);
      const id = nextId++;
      return {
        type: 'message_new',
        object: {
          message: {
            date: Math.floor(Date.now() / 1000),
            from_id: fromId,
            id,
            out: 0,
            version: 10_000_000 + id,
            attachments: [],
            conversation_message_id: id,
            fwd_messages: [],
            important: false,
            is_hidden: false,
            peer_id: fromId,
            random_id: 0,
            text: '',
            ...message,
          },
          client_info: {
            button_actions: ['text', 'vkpay', 'open_app', 'location', 'open_link', 'callback'],
            keyboard: true,
            inline_keyboard: true,
            carousel: true,
            lang_id: 0,
          },
        },
      };
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // A Long Poll request still waiting is cut.
        server.closeAllConnections();
      }),
  };

  const json = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, code: number, msg: string, params: Record<string, string>) =>
    json(res, {
      error: {
        error_code: code,
        error_msg: msg,
        request_params: Object.entries(params)
          .filter(([k]) => k !== 'access_token')
          .map(([key, value]) => ({ key, value })),
      },
    });

  /** Codes handed out by /authorize: for the user login, or (group) for a community's token. */
  const codes = new Map<string, { redirectUri: string; group: string | null }>();
  function authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const redirect = q.get('redirect_uri') ?? '';
    if (q.get('client_id') !== fake.appId || !redirect || q.get('response_type') !== 'code') {
      res.writeHead(400, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({ error: 'invalid_request', error_description: 'Invalid client_id or redirect_uri' }),
      );
    }
    const back = new URL(redirect);
    const state = q.get('state');
    if (fake.deny) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_reason', 'user_denied');
      back.searchParams.set('error_description', 'User denied your request');
    } else {
      const code = randomBytes(9).toString('hex');
      codes.set(code, { redirectUri: redirect, group: q.get('group_ids') });
      back.searchParams.set('code', code);
    }
    if (state) back.searchParams.set('state', state);
    res.writeHead(302, { location: back.toString() });
    res.end();
  }
  function accessToken(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const fail = (code: string, description: string) => {
      res.writeHead(401, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: code, error_description: description }));
    };
    if (q.get('client_id') !== fake.appId || q.get('client_secret') !== fake.appSecret)
      return fail('invalid_client', 'client_secret is incorrect');
    const code = codes.get(q.get('code') ?? '');
    if (!code || code.redirectUri !== q.get('redirect_uri'))
      return fail('invalid_grant', 'Code is invalid or expired.');
    codes.delete(q.get('code') ?? '');
    if (code.group) {
      const out: Record<string, unknown> = { expires_in: 0 };
      for (const g of code.group.split(','))
        out[`access_token_${g}`] = g === String(fake.groupId) ? token : `vk1.a.other${g}`;
      return json(res, out);
    }
    return json(res, { access_token: fake.userToken, expires_in: 86_400, user_id: 1_000_001 });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const m = url.pathname.match(/^\/media\/(\w+)$/);
    if (req.method === 'GET' && m) {
      const g = generatedFiles.get(m[1] ?? '');
      if (g) return sendGenerated(res, g, fake.generated);
      const f = media.get(m[1] ?? '');
      if (!f) {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(200, { 'content-type': f.type });
      return res.end(f.bytes);
    }
    if (req.method === 'GET' && url.pathname === '/authorize') return authorize(url, res);
    if (url.pathname === `/lp/${fake.groupId}`) return fake.longPoll.handle(url, req, res);
    if (req.method === 'GET' && url.pathname === '/access_token') return accessToken(url, res);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const up = url.pathname.match(/^\/upload\/(photo|doc)$/);
    if (req.method === 'POST' && up) {
      const form = await new Request(`http://fake${url.pathname}`, {
        method: 'POST',
        headers: { 'content-type': String(req.headers['content-type'] ?? '') },
        body: raw,
      })
        .formData()
        .catch(() => null);
      const file = form?.get(up[1] === 'photo' ? 'photo' : 'file');
      if (!file || typeof file === 'string')
        return json(res, { error: up[1] === 'photo' ? 'ERR_UPLOAD_NO_PHOTO' : 'no file' });
      const key = randomBytes(6).toString('hex');
      pending.set(key, {
        kind: up[1] as 'photo' | 'doc',
        bytes: Buffer.from(await file.arrayBuffer()),
        name: file.name,
        type: file.type,
      });
      return up[1] === 'photo'
        ? json(res, { server: 812_345, photo: JSON.stringify([{ photo: key }]), hash: `h${key}` })
        : json(res, { file: key });
    }
    const method = url.pathname.replace(/^\/method\//, '');
    const params = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    for (const [k, v] of url.searchParams) params[k] ??= v;
    fake.calls.push({ method, params });
    if (req.method !== 'POST' || !url.pathname.startsWith('/method/'))
      return error(res, 3, 'Unknown method passed', params);
    // The user token (of the login) may list the user's communities; everything else needs the community token.
    if (params.access_token === fake.userToken && method === 'groups.get') {
      if (params.filter !== 'admin' || params.extended !== '1')
        return error(res, 100, 'One of the parameters specified was missing or invalid: filter', params);
      const item = {
        id: fake.groupId,
        name: 'Shop VK',
        screen_name: 'shopvk',
        is_closed: 0,
        type: 'group',
        is_admin: 1,
        admin_level: 3,
      };
      return json(res, { response: { count: 1, items: [item] } });
    }
    if (params.access_token === fake.otherToken) {
      // Another community's token: its own community without an id; a community by id is public information.
      const other = {
        id: fake.groupId + 1,
        name: 'Other VK',
        screen_name: 'othervk',
        is_closed: 0,
        type: 'group',
      };
      const shop = { id: fake.groupId, name: 'Shop VK', screen_name: 'shopvk', is_closed: 0, type: 'group' };
      const asked = params.group_ids ?? params.group_id;
      if (method === 'groups.getById')
        return json(res, {
          response: { groups: [asked === String(fake.groupId) ? shop : other], profiles: [] },
        });
      if (method === 'groups.getTokenPermissions')
        return json(res, { response: { mask: fake.mask, permissions: [] } });
      return error(res, 15, 'Access denied', params);
    }
    if (params.access_token !== token)
      return error(res, 5, 'User authorization failed: invalid access_token (4).', params);
    if (!params.v) return error(res, 8, 'Invalid request: v (version) is required', params);
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      inWindow = 0;
    }
    if (++inWindow > fake.perSecond) return error(res, 6, 'Too many requests per second', params);
    const fail = fails.find((f) => f.method === method);
    if (fail) {
      if (--fail.times <= 0) {
        fails.splice(fails.indexOf(fail), 1);
        fail.then?.();
      }
      return error(res, fail.code, fail.message, params);
    }
    const group = { id: fake.groupId, name: 'Shop VK', screen_name: 'shopvk', is_closed: 0, type: 'group' };
    switch (method) {
      case 'groups.getById': {
        // group_id or group_ids (a list); neither: the token's own community (dev.vk.com/ru/method/groups.getById).
        const asked = params.group_ids ?? params.group_id;
        if (asked?.split(',').some((g) => g !== String(fake.groupId) && g !== 'shopvk'))
          return error(
            res,
            100,
            'One of the parameters specified was missing or invalid: group_id is undefined',
            params,
          );
        return json(res, { response: { groups: [group], profiles: [] } });
      }
      case 'groups.deleteCallbackServer': {
        // https://dev.vk.com/ru/method/groups.deleteCallbackServer: group_id and server_id; answers 1.
        const at = fake.callbackServers.findIndex((c) => String(c.id) === params.server_id);
        if (params.group_id !== String(fake.groupId) || at < 0)
          return error(res, 100, 'One of the parameters specified was missing or invalid: server_id', params);
        fake.callbackServers.splice(at, 1);
        return json(res, { response: 1 });
      }
      case 'groups.addCallbackServer': {
        if (params.group_id !== String(fake.groupId) || !params.url || !params.title)
          return error(res, 100, 'One of the parameters specified was missing or invalid: url', params);
        if (params.title.length > 14)
          return error(
            res,
            100,
            'One of the parameters specified was missing or invalid: title is too long',
            params,
          );
        const id = nextServerId++;
        fake.callbackServers.push({
          id,
          url: params.url,
          title: params.title,
          secretKey: params.secret_key ?? '',
          settings: {},
        });
        fake.secret = params.secret_key ?? fake.secret;
        return json(res, { response: { server_id: id } });
      }
      case 'groups.getCallbackConfirmationCode':
        if (params.group_id !== String(fake.groupId))
          return error(res, 100, 'One of the parameters specified was missing or invalid: group_id', params);
        return json(res, { response: { code: fake.confirmation } });
      case 'groups.setCallbackSettings': {
        const server = fake.callbackServers.find((c) => String(c.id) === params.server_id);
        if (params.group_id !== String(fake.groupId) || !server)
          return error(res, 100, 'One of the parameters specified was missing or invalid: server_id', params);
        const { access_token: _t, v: _v, group_id: _g, server_id: _s, ...settings } = params;
        server.settings = settings;
        return json(res, { response: 1 });
      }
      case 'groups.setLongPollSettings': {
        if (params.group_id !== String(fake.groupId))
          return error(res, 100, 'One of the parameters specified was missing or invalid: group_id', params);
        // Changing the community's settings needs the community management right (262144).
        if ((fake.mask & 262144) === 0)
          return error(res, 15, 'Access denied: no access to call this method', params);
        fake.longPoll.setLongPollSettings(params);
        return json(res, { response: 1 });
      }
      case 'groups.getLongPollServer':
        if (params.group_id !== String(fake.groupId))
          return error(res, 100, 'One of the parameters specified was missing or invalid: group_id', params);
        if (!fake.longPoll.enabled)
          return error(
            res,
            100,
            'One of the parameters specified was missing or invalid: longpoll for this group is not enabled',
            params,
          );
        return json(res, { response: fake.longPoll.server(fake.baseUrl) });
      case 'groups.getTokenPermissions':
        return json(res, { response: { mask: fake.mask, permissions: [] } });
      case 'messages.setActivity': {
        const peer = Number(params.peer_id ?? params.user_id);
        if (!peer || !['typing', 'audiomessage'].includes(params.type ?? ''))
          return error(
            res,
            100,
            'One of the parameters specified was missing or invalid: peer_id or type',
            params,
          );
        if (!fake.allowed.has(peer))
          return error(res, 901, "Can't send messages for users without permission", params);
        return json(res, { response: 1 });
      }
      case 'messages.send': {
        const peer = Number(params.peer_id ?? params.user_id);
        if (!peer)
          return error(res, 100, 'One of the parameters specified was missing or invalid: peer_id', params);
        if (params.random_id === undefined)
          return error(
            res,
            100,
            'One of the parameters specified was missing or invalid: random_id is a required parameter',
            params,
          );
        if (!params.message && !params.attachment)
          return error(
            res,
            100,
            'One of the parameters specified was missing or invalid: message is empty or invalid',
            params,
          );
        if ((params.message ?? '').length > 4096) return error(res, 914, 'Message is too long', params);
        if (params.keyboard && !keyboardFits(params.keyboard))
          return error(res, 911, 'Keyboard format is invalid', params);
        if (!fake.allowed.has(peer))
          return error(res, 901, "Can't send messages for users without permission", params);
        for (const a of (params.attachment ?? '').split(',').filter(Boolean))
          if (!fake.uploads.has(a))
            return error(
              res,
              100,
              `One of the parameters specified was missing or invalid: attachment ${a}`,
              params,
            );
        const key = `${peer}:${params.random_id}`;
        const known = byRandom.get(key);
        if (known !== undefined) return json(res, { response: known });
        const id = nextId++;
        byRandom.set(key, id);
        fake.sent.push({ id, params });
        return json(res, { response: id });
      }
      case 'photos.getMessagesUploadServer':
        return json(res, {
          response: {
            album_id: -64,
            upload_url: `${fake.baseUrl}/upload/photo`,
            user_id: 0,
            group_id: fake.groupId,
          },
        });
      case 'docs.getMessagesUploadServer':
        return json(res, { response: { upload_url: `${fake.baseUrl}/upload/doc` } });
      case 'photos.saveMessagesPhoto': {
        let key = '';
        try {
          key = (JSON.parse(params.photo ?? '[]') as { photo: string }[])[0]?.photo ?? '';
        } catch {}
        const p = pending.get(key);
        if (p?.kind !== 'photo' || params.hash !== `h${key}`) return error(res, 121, 'Invalid hash', params);
        pending.delete(key);
        const id = nextId++;
        fake.uploads.set(`photo-${fake.groupId}_${id}`, p);
        return json(res, { response: [{ id, album_id: -64, owner_id: -fake.groupId, sizes: [] }] });
      }
      case 'docs.save': {
        const p = pending.get(params.file ?? '');
        if (p?.kind !== 'doc') return error(res, 1152, 'Invalid document title', params);
        pending.delete(params.file ?? '');
        const id = nextId++;
        fake.uploads.set(`doc-${fake.groupId}_${id}`, { ...p, name: params.title ?? p.name });
        return json(res, {
          response: {
            type: 'doc',
            doc: { id, owner_id: -fake.groupId, title: params.title ?? p.name, size: p.bytes.length },
          },
        });
      }
      case 'users.get': {
        const ids = (params.user_ids ?? '').split(',').filter(Boolean).map(Number);
        if (!ids.length || ids.some((id) => !Number.isInteger(id) || id <= 0))
          return error(res, 113, 'Invalid user id', params);
        return json(res, {
          response: ids.map((id) => {
            const u = fake.users.get(id);
            return u
              ? { id, ...u, can_access_closed: true, is_closed: false }
              : { id, first_name: 'DELETED', last_name: '', deactivated: 'deleted' };
          }),
        });
      }
      default:
        return error(res, 3, 'Unknown method passed', params);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/**
 * VK's keyboard limits (https://dev.vk.com/ru/api/bots/development/keyboard): an inline keyboard at most 6 rows, a
 * regular one 10; at most 5 buttons a row; an open_link button is wide (it counts as two of a row's five).
 */
function keyboardFits(json: string): boolean {
  try {
    const k = JSON.parse(json) as { inline?: boolean; buttons: { action: { type: string } }[][] };
    if (k.buttons.length > (k.inline ? 6 : 10)) return false;
    return k.buttons.every(
      (row) => row.reduce((n, b) => n + (b.action.type === 'open_link' ? 2 : 1), 0) <= 5,
    );
  } catch {
    return false;
  }
}

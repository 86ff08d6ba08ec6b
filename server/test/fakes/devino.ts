import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of Devino Telecom's Viber HTTP API (docs/providers/viber-regional.md §1a, `viber.devinotele.com:444`):
 * HTTP Basic with the cabinet's login and password; `POST /send` (at most 100 messages, each checked as documented:
 * registered `subject`, `address` digits, `priority`, `validityPeriodSec` 30–86400, content by `contentType`, the SMS
 * fallback fields only with `resendSms`, never on an image) answering `providerId`s as bare 64-bit numbers;
 * `POST /status` (at most 100 ids) with Viber statuses and, after a fallback, `smsStates`. Errors are in the body
 * (`status`, per message `code`); `failNext` makes the next calls answer an HTTP error (429 with Retry-After, 5xx)
 * without taking anything. `reply` posts a subscriber's reply to our address as Devino does (a JSON array).
 */
export type DevinoSent = { providerId: string; resendSms: boolean; message: Record<string, unknown> };
export type DevinoState = { status: string; error?: string; smsStates?: { id: string; state: string }[] };

export type FakeDevino = {
  baseUrl: string;
  login: string;
  password: string;
  /** Viber senders (`subject`) registered for the account. */
  subject: string;
  /** SMS senders approved in the cabinet (`smsSrcAddress`). */
  smsSender: string;
  calls: { path: string; body: unknown; authorised: boolean }[];
  sent: DevinoSent[];
  states: Map<string, DevinoState>;
  /** Phones without Viber: their messages end `undelivered` (`not-viber-user`), or go as SMS with the fallback. */
  noViber: Set<string>;
  /** Our reply address, as Devino's support would set it up. */
  replyUrl: string | null;
  reach: (url: string) => string;
  failNext(path: string, status: number, times?: number): void;
  setStatus(providerId: string, status: string, error?: string): void;
  /** Posts a reply (or several) as Devino does; answers our HTTP status. */
  reply(items: Record<string, unknown>[], url?: string): Promise<number>;
  replyItem(address: string, content: string, parentId?: string): Record<string, unknown>;
  close(): Promise<void>;
};

/** Devino's ids are 64-bit numbers in its JSON: written bare, read as strings. */
const bareIds = (json: string) => json.replace(/"(providerId|parentId|id)":"(\d{16,})"/g, '"$1":$2');
const readIds = (text: string) =>
  JSON.parse(text.replace(/("(?:providerId|parentId|id)"\s*:\s*)(\d{16,})/g, '$1"$2"'));

export async function startFakeDevino(): Promise<FakeDevino> {
  const fails: { path: string; status: number; times: number }[] = [];
  let next = 3158611117333282816n;
  let inbound = 7000000000000000000n;
  const fake: FakeDevino = {
    baseUrl: '',
    login: 'shop-devino',
    password: `pw-${randomBytes(6).toString('hex')}`,
    subject: 'MyShop',
    smsSender: 'MyShopSMS',
    calls: [],
    sent: [],
    states: new Map(),
    noViber: new Set(),
    replyUrl: null,
    reach: (url) => url,
    failNext(path, status, times = 1) {
      fails.push({ path, status, times });
    },
    setStatus(providerId, status, error) {
      fake.states.set(providerId, { ...fake.states.get(providerId), status, ...(error ? { error } : {}) });
    },
    async reply(items, url) {
      const target = url ?? fake.replyUrl;
      if (!target) throw new Error('no reply address set up');
      const res = await fetch(fake.reach(target), {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: bareIds(JSON.stringify(items)),
      });
      await res.arrayBuffer();
      return res.status;
    },
    replyItem(address, content, parentId) {
      return {
        id: String(++inbound),
        ...(parentId ? { parentId } : {}),
        receivedAt: new Date().toISOString().slice(0, 19).replace('T', ' '),
        subject: fake.subject,
        address,
        contentType: 'text',
        content,
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(bareIds(JSON.stringify(body)));
  };

  function checkMessage(m: Record<string, unknown>, resendSms: boolean): string {
    const content = (m.content ?? {}) as Record<string, unknown>;
    if (m.subject !== fake.subject) return 'error-subject-unknown';
    if (typeof m.address !== 'string' || !/^\d{10,15}$/.test(m.address)) return 'error-address-format';
    if (!['low', 'normal', 'high', 'realtime'].includes(String(m.priority))) return 'error-priority-format';
    const validity = Number(m.validityPeriodSec);
    if (!(validity >= 30 && validity <= 86_400)) return 'error-validity-period-seconds-format';
    if (m.type !== 'viber') return 'error-type-format';
    if (m.contentType === 'text' && (typeof content.text !== 'string' || !content.text))
      return 'error-content-not-specified';
    if (typeof content.text === 'string' && content.text.length > 1000) return 'error-content-text-length';
    if (m.contentType === 'image' && (typeof content.imageUrl !== 'string' || content.text !== undefined))
      return 'error-content-not-specified';
    if (!['text', 'image', 'button'].includes(String(m.contentType))) return 'error-content-type-format';
    const smsFields = m.smsText !== undefined || m.smsSrcAddress !== undefined;
    if (smsFields && !resendSms) return 'error-resend-sms-error';
    if (resendSms && m.contentType === 'image') return 'error-resend-sms-error';
    if (resendSms && m.smsSrcAddress !== fake.smsSender) return 'error-sms-src-address-unknown';
    if (resendSms) {
      const v = Number(m.smsValidityPeriodSec);
      if (!(v >= 60 && v <= 86_400)) return 'error-resend-sms-validity-period-error';
    }
    return 'ok';
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const expected = `Basic ${Buffer.from(`${fake.login}:${fake.password}`).toString('base64')}`;
    const authorised = req.headers.authorization === expected;
    let body: Record<string, unknown>;
    const text = Buffer.concat(chunks).toString('utf8') || '{}';
    try {
      body = readIds(text);
      // `/status` takes the ids as a bare list of 64-bit numbers: read from the text, exactly.
      const list = url.pathname === '/status' ? text.match(/"messages"\s*:\s*\[([^\]]*)\]/) : null;
      if (list)
        body.messages = (list[1] ?? '')
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
    } catch {
      return json(res, 200, { status: 'error-syntax' });
    }
    fake.calls.push({ path: url.pathname, body, authorised });
    const fail = fails.find((f) => url.pathname === f.path);
    if (fail) {
      if (--fail.times <= 0) fails.splice(fails.indexOf(fail), 1);
      return json(
        res,
        fail.status,
        { status: 'error-system' },
        fail.status === 429 ? { 'retry-after': '30' } : {},
      );
    }
    if (req.method !== 'POST') return json(res, 405, { status: 'error-syntax' });
    if (!authorised) return json(res, 200, { status: 'error-auth' });
    const messages = body.messages;
    if (!Array.isArray(messages) || messages.length > 100) return json(res, 200, { status: 'error-syntax' });
    if (url.pathname === '/send') {
      const resendSms = body.resendSms === true;
      const answers = messages.map((m: Record<string, unknown>) => {
        const code = checkMessage(m, resendSms);
        if (code !== 'ok') return { code };
        const providerId = String(++next);
        fake.sent.push({ providerId, resendSms, message: m });
        const phone = String(m.address);
        fake.states.set(
          providerId,
          !fake.noViber.has(phone)
            ? { status: 'sent' }
            : resendSms
              ? {
                  status: 'undelivered',
                  error: 'not-viber-user',
                  smsStates: [{ id: String(++next), state: 'delivered' }],
                }
              : { status: 'undelivered', error: 'not-viber-user' },
        );
        return { code: 'ok', providerId };
      });
      return json(res, 200, { status: 'ok', messages: answers });
    }
    if (url.pathname === '/status') {
      const answers = messages.map((id: unknown) => {
        const state = fake.states.get(String(id));
        if (!state) return { providerId: String(id), code: 'error-instant-message-provider-id-unknown' };
        return {
          providerId: String(id),
          code: 'ok',
          status: state.status,
          statusAt: new Date().toISOString().slice(0, 19).replace('T', ' '),
          ...(state.error ? { error: state.error } : {}),
          ...(state.smsStates ? { smsStates: state.smsStates } : {}),
        };
      });
      return json(res, 200, { status: 'ok', messages: answers });
    }
    return json(res, 404, { status: 'error-syntax' });
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

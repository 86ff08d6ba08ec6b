import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomUUID,
} from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/**
 * A fake of Apple's Messages for Business MSP gateway following docs/providers/apple-business.md: every call needs
 * `Authorization: Bearer <JWT>` (HS256 with the Base64-decoded secret, `iss` the MSP id) and `source-id` the
 * business id, else 401. POST /v1/message (headers id and destination-id, the body's id the header's; a message id
 * seen before is answered 200 and not recorded again), GET /v1/preUpload (MMCS-Size → upload-url, mmcs-url,
 * mmcs-owner), POST of the encrypted bytes to the upload URL (→ singleFile.fileChecksum), GET /v1/preDownload
 * (MMCS-Url, MMCS-Owner, MMCS-Signature in Base64 → download-url) and the download. A message's attachments are
 * checked against the uploads and decrypted with their key, so a test sees the bytes the customer would. Errors are
 * scripted per path (401, 429 with Retry-After, 5xx). Inbound: builds Apple's messages and POSTs them gzipped and
 * signed (`aud` the MSP id) to our webhook with Apple's headers.
 */

export type AppleSent = {
  id: string;
  headers: Record<string, string | undefined>;
  body: Record<string, unknown>;
  /** The decrypted bytes of each attachment, in order. */
  files: { name: string; mimeType: string; bytes: Buffer }[];
};
export type AppleFail = { status: number; retryAfter?: string };
export type AppleAttachmentDict = Record<string, string>;

export type FakeAppleBusiness = {
  /** The gateway's base (APPLE_BUSINESS_API_BASE_URL), ending in /v1. */
  baseUrl: string;
  businessId: string;
  mspId: string;
  /** The API secret, Base64. */
  secret: string;
  /** Every call, in order (path and status answered). */
  calls: { method: string; path: string; status: number }[];
  /** Messages accepted, once per id. */
  sent: AppleSent[];
  /** POSTs of /message, duplicates included. */
  messagePosts: number;
  /** The next `times` calls whose path ends with `pathEnd`, after `skip` of them went through, answer this error. */
  failNext(pathEnd: string, fail: AppleFail, times?: number, skip?: number): void;
  /** A customer's file kept at the fake, encrypted as Apple does: the attachment dictionary of a message. */
  addFile(bytes: Buffer, name: string, mimeType: string): AppleAttachmentDict;
  /** Apple's message dictionaries from a customer (`sourceId`) to the business. */
  text(sourceId: string, body: string, attachments?: AppleAttachmentDict[]): Record<string, unknown>;
  listPickerReply(sourceId: string, items: { identifier: string; title: string }[]): Record<string, unknown>;
  event(sourceId: string, type: string): Record<string, unknown>;
  /** An inbound JWT as Apple signs it (`aud` the MSP id), or one signed with another secret. */
  inboundJwt(secret?: string): string;
  /** POSTs a message to our webhook as Apple does (gzip JSON, signed, Apple's headers); answers the status. */
  deliver(
    url: string,
    message: Record<string, unknown>,
    opts?: { jwt?: string; gzip?: boolean; raw?: Buffer; headers?: Record<string, string> },
  ): Promise<number>;
  close(): Promise<void>;
};

const ZERO_IV = Buffer.alloc(16);
const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

function sign(claims: Record<string, unknown>, secret: string): string {
  const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${head}.${createHmac('sha256', Buffer.from(secret, 'base64')).update(head).digest('base64url')}`;
}

/** The claims of a JWT signed with `secret`, or null. */
function verified(token: string, secret: string): Record<string, unknown> | null {
  const [head, claims, signature] = token.split('.');
  if (!head || !claims || !signature) return null;
  const expected = createHmac('sha256', Buffer.from(secret, 'base64'))
    .update(`${head}.${claims}`)
    .digest('base64url');
  if (expected !== signature) return null;
  try {
    return JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

function aes(key: Buffer, data: Buffer, decrypt = false): Buffer {
  const c = decrypt
    ? createDecipheriv('aes-256-ctr', key, ZERO_IV)
    : createCipheriv('aes-256-ctr', key, ZERO_IV);
  return Buffer.concat([c.update(data), c.final()]);
}

const checksumOf = (data: Buffer) => createHash('sha1').update(data).digest();

export async function startFakeAppleBusiness(): Promise<FakeAppleBusiness> {
  const fails: { pathEnd: string; fail: AppleFail; times: number; skip: number }[] = [];
  /** Stored encrypted files by their mmcs-url: owner, checksum (Base64). */
  const blobs = new Map<string, { owner: string; checksum: string; bytes: Buffer }>();
  const pendingUploads = new Map<string, { mmcsUrl: string; owner: string; size: number }>();
  const seen = new Set<string>();
  let origin = '';
  let seq = 0;

  const fake: FakeAppleBusiness = {
    baseUrl: '',
    businessId: randomUUID(),
    mspId: `msp-${randomBytes(4).toString('hex')}`,
    secret: randomBytes(32).toString('base64'),
    calls: [],
    sent: [],
    messagePosts: 0,
    failNext(pathEnd, fail, times = 1, skip = 0) {
      fails.push({ pathEnd, fail, times, skip });
    },
    addFile(bytes, name, mimeType) {
      const key = randomBytes(32);
      const encrypted = aes(key, bytes);
      const mmcsUrl = `${origin}/mmcs/${++seq}`;
      const owner = `owner-${seq}`;
      const checksum = checksumOf(encrypted);
      blobs.set(mmcsUrl, { owner, checksum: checksum.toString('base64'), bytes: encrypted });
      return {
        name,
        mimeType,
        size: String(encrypted.length),
        key: `00${key.toString('hex')}`,
        url: mmcsUrl,
        owner,
        signature: checksum.toString('hex'),
      };
    },
    text: (sourceId, body, attachments) => ({
      id: randomUUID(),
      sourceId,
      destinationId: fake.businessId,
      type: 'text',
      v: 1,
      body,
      locale: 'en_US',
      ...(attachments ? { attachments } : {}),
    }),
    listPickerReply: (sourceId, items) => ({
      id: randomUUID(),
      sourceId,
      destinationId: fake.businessId,
      type: 'interactive',
      v: 1,
      interactiveData: {
        bid: 'com.apple.messages.MSMessageExtensionBalloonPlugin:0000000000:com.apple.icloud.apps.messages.business.extension',
        data: {
          version: '1.0',
          requestIdentifier: randomUUID(),
          listPicker: {
            sections: [{ order: 0, title: 'Choose', items: items.map((i, order) => ({ ...i, order })) }],
          },
          replyMessage: { title: items.map((i) => i.title).join(', ') },
        },
      },
    }),
    event: (sourceId, type) => ({ id: randomUUID(), sourceId, destinationId: fake.businessId, type, v: 1 }),
    inboundJwt: (secret = fake.secret) =>
      sign({ aud: fake.mspId, iat: Math.floor(Date.now() / 1000) }, secret),
    async deliver(url, message, opts = {}) {
      const json = Buffer.from(JSON.stringify(message));
      const body = opts.raw ?? (opts.gzip === false ? json : gzipSync(json));
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${opts.jwt ?? fake.inboundJwt()}`,
          id: String(message.id ?? ''),
          'source-id': String(message.sourceId ?? ''),
          'destination-id': fake.businessId,
          'device-agent': 'iPhone OS',
          ...opts.headers,
        },
        body: new Uint8Array(body),
      });
      await res.arrayBuffer();
      return res.status;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const answer = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
    return status;
  };

  /** The caller is our MSP: a JWT of our secret issued by the MSP id, for the business. */
  const authorised = (req: IncomingMessage) => {
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const claims = verified(token, fake.secret);
    return (
      claims?.iss === fake.mspId &&
      typeof claims.iat === 'number' &&
      req.headers['source-id'] === fake.businessId
    );
  };

  function scripted(path: string): AppleFail | undefined {
    const f = fails.find((x) => path.endsWith(x.pathEnd) && x.times > 0);
    if (!f) return undefined;
    if (f.skip > 0) {
      f.skip--;
      return undefined;
    }
    f.times--;
    return f.fail;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<number> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    const fail = scripted(path);
    if (fail) {
      answer(
        res,
        fail.status,
        { error: `scripted ${fail.status}` },
        fail.retryAfter ? { 'retry-after': fail.retryAfter } : {},
      );
      return fail.status;
    }
    // Upload and download URLs are handed out by pre* calls and need no JWT, as Apple's samples show.
    const upload = /^\/upload\/(\w+)$/.exec(path);
    if (upload && req.method === 'POST') {
      const pending = pendingUploads.get(upload[1] ?? '');
      if (!pending || raw.length !== pending.size) return answer(res, 400, { error: 'size' });
      const checksum = checksumOf(raw).toString('base64');
      blobs.set(pending.mmcsUrl, { owner: pending.owner, checksum, bytes: raw });
      return answer(res, 200, { singleFile: { fileChecksum: checksum } });
    }
    const download = /^\/download\/(\d+)$/.exec(path);
    if (download && req.method === 'GET') {
      const blob = blobs.get(`${origin}/mmcs/${download[1]}`);
      if (!blob) return answer(res, 404, {});
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(blob.bytes.length),
      });
      res.end(blob.bytes);
      return 200;
    }
    if (!authorised(req)) return answer(res, 401, { error: 'unauthorized' });
    if (path === '/v1/preUpload' && req.method === 'GET') {
      const size = Number(req.headers['mmcs-size']);
      if (!Number.isInteger(size) || size < 1) return answer(res, 400, { error: 'MMCS-Size' });
      const n = ++seq;
      const mmcsUrl = `${origin}/mmcs/${n}`;
      pendingUploads.set(String(n), { mmcsUrl, owner: `owner-${n}`, size });
      return answer(res, 200, {
        'upload-url': `${origin}/upload/${n}`,
        'mmcs-url': mmcsUrl,
        'mmcs-owner': `owner-${n}`,
      });
    }
    if (path === '/v1/preDownload' && req.method === 'GET') {
      const blob = blobs.get(String(req.headers['mmcs-url']));
      if (
        !blob ||
        blob.owner !== req.headers['mmcs-owner'] ||
        blob.checksum !== req.headers['mmcs-signature']
      )
        return answer(res, 400, { error: 'unknown file' });
      const n = String(req.headers['mmcs-url']).split('/').pop();
      return answer(res, 200, { 'download-url': `${origin}/download/${n}` });
    }
    if (path === '/v1/message' && req.method === 'POST') {
      fake.messagePosts++;
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return answer(res, 400, { error: 'json' });
      }
      const id = req.headers.id;
      if (typeof id !== 'string' || body.id !== id || body.v !== 1 || body.sourceId !== fake.businessId)
        return answer(res, 400, { error: 'id, v or sourceId' });
      if (body.destinationId !== req.headers['destination-id'])
        return answer(res, 400, { error: 'destination' });
      if (seen.has(id)) return answer(res, 200, {});
      const files: AppleSent['files'] = [];
      for (const a of (body.attachments ?? []) as AppleAttachmentDict[]) {
        const blob = blobs.get(a.url ?? '');
        if (
          !blob ||
          blob.owner !== a.owner ||
          blob.checksum !== a['signature-base64'] ||
          Number(a.size) !== blob.bytes.length
        )
          return answer(res, 400, { error: 'attachment' });
        const key = Buffer.from((a.key ?? '').replace(/^00/, ''), 'hex');
        files.push({ name: a.name ?? '', mimeType: a.mimeType ?? '', bytes: aes(key, blob.bytes, true) });
      }
      seen.add(id);
      fake.sent.push({
        id,
        headers: { 'auto-reply': req.headers['auto-reply'] as string | undefined },
        body,
        files,
      });
      return answer(res, 200, {});
    }
    return answer(res, 404, { error: 'not found' });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks)).then((status) =>
        fake.calls.push({
          method: req.method ?? '',
          path: new URL(req.url ?? '/', 'http://fake').pathname,
          status,
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.baseUrl = `${origin}/v1`;
  return fake;
}

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { Agent, fetch } from 'undici';

/**
 * Requests to URLs a tenant chose (webhooks, media links) go through here and nowhere else: only http(s),
 * never to loopback, private, link-local, unique-local or other special addresses (checked on the address
 * actually connected to, so a name that resolves differently the second time gains nothing), no redirect
 * followed, a 10 s deadline and at most 64 KB of the answer read. The installation's operator may allow
 * networks or host names with OUTBOUND_ALLOWED_NETWORKS.
 */
export const OUTBOUND = {
  timeoutMs: 10_000,
  maxAnswerBytes: 64 * 1024,
  streamTimeoutMs: 10 * 60_000,
  /** The longest a provider may hold an answer open (long polling: Telegram's getUpdates timeout), on top of timeoutMs. */
  heldMaxMs: 60_000,
} as const;

/** Why a URL may not be requested; the message names no internal detail beyond the address. */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
}

export type OutboundAnswer = {
  status: number;
  headers: Headers;
  /** The first OUTBOUND.maxAnswerBytes of the answer; the rest was discarded unread. */
  body: Buffer;
  truncated: boolean;
};

export type OutboundInit = {
  method?: string;
  headers?: Record<string, string>;
  /** A multipart form must be undici's FormData (the global one belongs to Node's own copy of undici). */
  body?: string | Uint8Array | import('undici').FormData;
  /** Shorter deadlines than OUTBOUND.timeoutMs only. */
  timeoutMs?: number;
  /** A larger answer than OUTBOUND.maxAnswerBytes, for media downloads from a provider (the rest is still discarded). */
  maxBytes?: number;
  /**
   * The provider holds the answer open up to this long before it answers (long polling), at most OUTBOUND.heldMaxMs:
   * the deadline grows by it.
   */
  heldMs?: number;
  /** Ends the request early (a poll session that stops); the deadline applies as well. */
  signal?: AbortSignal;
};

/**
 * An answer whose body is read by the caller as it arrives (a provider's media file): nothing is buffered here.
 * The caller must consume or destroy `body`; destroying it aborts the request.
 */
export type OutboundStream = {
  status: number;
  headers: Headers;
  body: Readable;
  /** The answer's Content-Length, when it names one. */
  size: number | null;
};

export type Outbound = {
  /** Throws OutboundRefusedError when the URL is not http(s) or names a refused address (a name that does not resolve is let through: sending re-checks). */
  check(url: string): Promise<void>;
  /** One request under the rules above; a refused address throws OutboundRefusedError, a network failure its own error. */
  fetch(url: string, init?: OutboundInit): Promise<OutboundAnswer>;
  /**
   * One request under the same rules whose answer is streamed to the caller (media downloads): the connection and
   * each pause of the body within OUTBOUND.timeoutMs, the whole answer within OUTBOUND.streamTimeoutMs.
   */
  stream(url: string, init?: Omit<OutboundInit, 'maxBytes'>): Promise<OutboundStream>;
  /**
   * The address to connect to for a host a tenant chose for another protocol (IMAP, SMTP): every address the name
   * resolves to must be allowed, as for URLs; the caller connects to the answer (TLS still checks the name).
   * Throws OutboundRefusedError for a refused address, the resolver's error when the name does not resolve.
   */
  resolve(host: string): Promise<string>;
  close(): Promise<void>;
};

type Rules = { cidrs: [ipaddr.IPv4 | ipaddr.IPv6, number][]; hosts: Set<string> };

/** Parses OUTBOUND_ALLOWED_NETWORKS: comma-separated CIDRs, single addresses or host names. Throws on a malformed entry. */
export function parseAllowedNetworks(text: string): Rules {
  const rules: Rules = { cidrs: [], hosts: new Set() };
  for (const raw of text.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry.includes('/')) rules.cidrs.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const addr = ipaddr.parse(entry);
      rules.cidrs.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
    } else if (/^[a-z0-9.-]+$/.test(entry)) rules.hosts.add(entry.replace(/\.$/, ''));
    else throw new Error(`not a CIDR, address or host name: ${entry}`);
  }
  return rules;
}

/**
 * The IPv4 address an IPv6 address carries in its last 32 bits, where the prefix says it is one: IPv4-compatible
 * ::a.b.c.d (deprecated, RFC 4291; `[::7f00:1]` is 127.0.0.1 to many stacks), IPv4-translated ::ffff:0:a.b.c.d
 * (RFC 6145) and NAT64's well-known prefix 64:ff9b::/96 (RFC 6052). IPv4-mapped ::ffff:a.b.c.d is unwrapped by
 * ipaddr.process already. `::` and `::1` are themselves.
 */
function embeddedIpv4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = addr.parts;
  const zero = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  const carries =
    (zero(0, 6) && !(p[6] === 0 && p[7] <= 1)) ||
    (zero(0, 4) && p[4] === 0xffff && p[5] === 0) ||
    (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6));
  return carries ? new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]) : null;
}

/**
 * True when an address may be connected to: a public unicast address, or one inside an allowed network. An IPv6
 * address that carries an IPv4 one (embeddedIpv4) is judged as that IPv4 address, by the same rules.
 */
export function addressAllowed(address: string, rules: Rules): boolean {
  if (!ipaddr.isValid(address)) return false;
  // ::ffff:127.0.0.1 is 127.0.0.1.
  const addr = ipaddr.process(address);
  for (const [net, bits] of rules.cidrs) {
    if (net.kind() === addr.kind() && addr.match(net, bits)) return true;
  }
  const v4 = addr.kind() === 'ipv6' ? embeddedIpv4(addr as ipaddr.IPv6) : null;
  if (v4) return addressAllowed(v4.toString(), rules);
  return addr.range() === 'unicast';
}

const bareHost = (hostname: string) =>
  hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

/** Builds the guarded client for one installation's rules. */
export function createOutbound(allowedNetworks = ''): Outbound {
  const rules = parseAllowedNetworks(allowedNetworks);
  const hostAllowed = (host: string) => rules.hosts.has(bareHost(host));

  const refuse = (host: string, address: string) =>
    new OutboundRefusedError(`address not allowed: ${host} (${address})`);

  /** Parses the URL and checks an address literal; names are checked when resolved. */
  function precheck(url: string): URL {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new OutboundRefusedError('not a URL');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new OutboundRefusedError('only http and https');
    if (u.username || u.password) throw new OutboundRefusedError('credentials in the URL');
    const host = bareHost(u.hostname);
    if (isIP(host) && !hostAllowed(host) && !addressAllowed(host, rules)) throw refuse(host, host);
    return u;
  }

  // The connect-time check: every address a name resolves to must be allowed, then the socket uses one of them.
  const lookup = (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { family: options.family ?? 0, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (!hostAllowed(hostname)) {
        const bad = addresses.find((a) => !addressAllowed(a.address, rules));
        if (bad) return callback(refuse(hostname, bad.address), []);
      }
      if (!addresses.length) return callback(new Error(`no address for ${hostname}`), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };

  const agent = new Agent({
    connect: { lookup, timeout: OUTBOUND.timeoutMs } as Agent.Options['connect'],
    headersTimeout: OUTBOUND.timeoutMs,
    bodyTimeout: OUTBOUND.timeoutMs,
  });

  // Long polls wait for their answer's headers longer than any other request may.
  const heldAgent = new Agent({
    connect: { lookup, timeout: OUTBOUND.timeoutMs } as Agent.Options['connect'],
    headersTimeout: OUTBOUND.timeoutMs + OUTBOUND.heldMaxMs,
    bodyTimeout: OUTBOUND.timeoutMs,
  });

  /** Sends one request under the rules; a refused address throws OutboundRefusedError, not undici's wrapper. */
  async function request(url: string, init: OutboundInit, deadline: AbortSignal) {
    const signal = init.signal ? AbortSignal.any([deadline, init.signal]) : deadline;
    const u = precheck(url);
    try {
      return await fetch(u, {
        method: init.method ?? 'GET',
        headers: init.headers,
        body: init.body as never,
        redirect: 'manual',
        dispatcher: init.heldMs ? heldAgent : agent,
        signal,
      });
    } catch (err) {
      // undici wraps connect errors: surface our refusal as itself.
      let cause: unknown = err;
      while (cause instanceof Error) {
        if (cause instanceof OutboundRefusedError) throw cause;
        cause = cause.cause;
      }
      throw err;
    }
  }

  return {
    async check(url) {
      const u = precheck(url);
      const host = bareHost(u.hostname);
      if (isIP(host) || hostAllowed(host)) return;
      const addresses = await new Promise<LookupAddress[]>((resolve) =>
        dnsLookup(host, { all: true }, (err, list) => resolve(err ? [] : list)),
      );
      const bad = addresses.find((a) => !addressAllowed(a.address, rules));
      if (bad) throw refuse(host, bad.address);
    },

    async fetch(url, init = {}) {
      const held = Math.min(Math.max(init.heldMs ?? 0, 0), OUTBOUND.heldMaxMs);
      const deadline = AbortSignal.timeout(
        Math.min(init.timeoutMs ?? OUTBOUND.timeoutMs, OUTBOUND.timeoutMs) + held,
      );
      const res = await request(url, { ...init, heldMs: held }, deadline);
      const { body, truncated } = await readBounded(res.body, init.maxBytes ?? OUTBOUND.maxAnswerBytes);
      return { status: res.status, headers: res.headers as unknown as Headers, body, truncated };
    },

    async stream(url, init = {}) {
      const signal = AbortSignal.timeout(
        Math.min(init.timeoutMs ?? OUTBOUND.streamTimeoutMs, OUTBOUND.streamTimeoutMs),
      );
      const res = await request(url, init, signal);
      const length = res.headers.get('content-length');
      const size = length && /^\d+$/.test(length) ? Number(length) : null;
      const body = res.body ? Readable.fromWeb(res.body as never) : Readable.from([]);
      return { status: res.status, headers: res.headers as unknown as Headers, body, size };
    },

    async resolve(hostname) {
      const host = bareHost(hostname);
      if (isIP(host)) {
        if (!hostAllowed(host) && !addressAllowed(host, rules)) throw refuse(host, host);
        return host;
      }
      const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
        dnsLookup(host, { all: true }, (err, list) => (err ? reject(err) : resolve(list))),
      );
      if (!addresses.length) throw new Error(`no address for ${host}`);
      if (!hostAllowed(host)) {
        const bad = addresses.find((a) => !addressAllowed(a.address, rules));
        if (bad) throw refuse(host, bad.address);
      }
      return addresses[0].address;
    },

    // A long poll still held open is cut (its session has ended); other requests finish first.
    close: async () => {
      await Promise.all([agent.close(), heldAgent.destroy()]);
    },
  };
}

/** Reads at most `max` bytes of a stream and cancels the rest, so a huge answer is never buffered. */
async function readBounded(
  stream: ReadableStream<Uint8Array> | null,
  max: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  if (!stream) return { body: Buffer.alloc(0), truncated: false };
  const reader = stream.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { body: Buffer.concat(chunks), truncated: false };
      const room = max - size;
      if (value.byteLength > room) {
        chunks.push(Buffer.from(value.subarray(0, room)));
        await reader.cancel().catch(() => undefined);
        return { body: Buffer.concat(chunks), truncated: true };
      }
      chunks.push(Buffer.from(value));
      size += value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * A Retry-After header's wait in milliseconds (RFC 9110: delay-seconds or an HTTP date), capped at an hour;
 * undefined when absent, unreadable or not in the future.
 */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 3_600_000) : undefined;
}

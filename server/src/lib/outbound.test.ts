import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import { after, describe, test } from 'node:test';
import {
  addressAllowed,
  createOutbound,
  OUTBOUND,
  OutboundRefusedError,
  parseAllowedNetworks,
} from './outbound.ts';

const none = parseAllowedNetworks('');

async function listen(handler: RequestListener): Promise<{ server: Server; url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}`, hits };
}

describe('outbound address rules', () => {
  test('loopback, private, link-local, unique-local and other special addresses are refused', () => {
    for (const a of [
      '127.0.0.1',
      '127.8.9.10',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '2002:7f00:1::',
      '64:ff9b::7f00:1',
      'ff02::1',
    ])
      assert.equal(addressAllowed(a, none), false, a);
  });

  test('an IPv6 address carrying an IPv4 one is judged as that IPv4 address (compatible, translated, NAT64)', () => {
    for (const a of [
      '::7f00:1',
      '::127.0.0.1',
      '::a00:1',
      '::a9fe:a9fe',
      '::c0a8:101',
      '::ffff:0:7f00:1',
      '64:ff9b::a00:1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::127.0.0.1',
    ])
      assert.equal(addressAllowed(a, none), false, a);
    for (const a of ['::808:808', '64:ff9b::808:808', '::ffff:0:808:808'])
      assert.equal(addressAllowed(a, none), true, a);
    // The embedded address meets the installation's networks too.
    const rules = parseAllowedNetworks('127.0.0.0/8');
    assert.equal(addressAllowed('::7f00:1', rules), true);
    assert.equal(addressAllowed('::a00:1', rules), false);
  });

  test('public unicast addresses are allowed', () => {
    for (const a of ['8.8.8.8', '93.184.216.34', '172.32.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      assert.equal(addressAllowed(a, none), true, a);
  });

  test('OUTBOUND_ALLOWED_NETWORKS opens CIDRs and single addresses, of either family', () => {
    const rules = parseAllowedNetworks(' 127.0.0.0/8 , 10.5.0.0/16,::1 ,hooks.internal');
    assert.equal(addressAllowed('127.0.0.1', rules), true);
    assert.equal(addressAllowed('::ffff:127.0.0.1', rules), true);
    assert.equal(addressAllowed('10.5.3.3', rules), true);
    assert.equal(addressAllowed('10.6.0.1', rules), false);
    assert.equal(addressAllowed('::1', rules), true);
    assert.equal(addressAllowed('192.168.0.1', rules), false);
    assert.ok(rules.hosts.has('hooks.internal'));
    assert.throws(() => parseAllowedNetworks('10.0.0.0/99'));
    assert.throws(() => parseAllowedNetworks('not a host!'));
  });
});

describe('guarded outbound fetch', () => {
  const servers: Server[] = [];
  after(() => {
    for (const s of servers) s.closeAllConnections();
    for (const s of servers) s.close();
  });

  test('refuses a loopback address given as a literal, a name, IPv6 or a decimal form, before connecting', async () => {
    const target = await listen((_req, res) => res.end('ok'));
    servers.push(target.server);
    const port = new URL(target.url).port;
    const out = createOutbound('');
    try {
      for (const url of [
        `http://127.0.0.1:${port}/x`,
        `http://localhost:${port}/x`,
        `http://2130706433:${port}/x`,
        `http://0x7f.0.0.1:${port}/x`,
        `http://[::1]:${port}/x`,
        `http://[::ffff:127.0.0.1]:${port}/x`,
      ]) {
        await assert.rejects(out.fetch(url), OutboundRefusedError, url);
        await assert.rejects(out.stream(url), OutboundRefusedError, url);
        await assert.rejects(out.check(url), OutboundRefusedError, url);
      }
      await assert.rejects(out.fetch('file:///etc/passwd'), OutboundRefusedError);
      await assert.rejects(out.fetch('gopher://example.com/'), OutboundRefusedError);
      assert.deepEqual(target.hits, [], 'nothing reached the local server');
      // A name that does not resolve is not refused when saved (sending re-checks whatever it resolves to then).
      await out.check('https://hooks.example.invalid/x');
    } finally {
      await out.close();
    }
  });

  test('an allowed network is reached; a redirect is answered as is, never followed', async () => {
    const inner = await listen((_req, res) => res.end('secret'));
    const redirector = await listen((_req, res) => {
      res.statusCode = 302;
      res.setHeader('location', `${inner.url}/admin`);
      res.end();
    });
    servers.push(inner.server, redirector.server);
    const out = createOutbound('127.0.0.0/8');
    try {
      const res = await out.fetch(`${redirector.url}/hook`, { method: 'POST', body: '{}' });
      assert.equal(res.status, 302);
      assert.deepEqual(redirector.hits, ['POST /hook']);
      assert.deepEqual(inner.hits, [], 'the redirect target was not requested');
    } finally {
      await out.close();
    }
  });

  test('reads at most 64 KB of an answer and drops the rest unread', async () => {
    let written = 0;
    let aborted = false;
    const huge = await listen((_req, res) => {
      const chunk = Buffer.alloc(64 * 1024, 'a');
      res.on('close', () => {
        aborted = !res.writableFinished;
      });
      const pump = () => {
        while (written < 50 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    servers.push(huge.server);
    const out = createOutbound('127.0.0.1');
    try {
      const res = await out.fetch(huge.url);
      assert.equal(res.body.length, OUTBOUND.maxAnswerBytes);
      assert.equal(res.truncated, true);
      await new Promise((r) => setTimeout(r, 200));
      assert.ok(aborted, 'the connection was closed before the 50 MB were sent');
      assert.ok(written < 50 * 1024 * 1024);
    } finally {
      await out.close();
    }
  });

  test('gives up on a server that never answers (deadline 10 s, shorter on request)', async () => {
    assert.equal(OUTBOUND.timeoutMs, 10_000);
    const silent = await listen(() => undefined);
    servers.push(silent.server);
    const out = createOutbound('127.0.0.1');
    try {
      const started = Date.now();
      await assert.rejects(out.fetch(silent.url, { timeoutMs: 300 }));
      assert.ok(Date.now() - started < 3_000);
    } finally {
      await out.close();
    }
  });

  test('stream: the answer is handed over as it arrives, with its Content-Length; destroying it closes the connection', async () => {
    let aborted = false;
    const big = await listen((_req, res) => {
      const chunk = Buffer.alloc(64 * 1024, 'b');
      res.setHeader('content-length', String(50 * 1024 * 1024));
      res.on('close', () => {
        aborted = !res.writableFinished;
      });
      const pump = () => {
        while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
      };
      pump();
    });
    servers.push(big.server);
    const out = createOutbound('127.0.0.1');
    try {
      const res = await out.stream(big.url);
      assert.equal(res.status, 200);
      assert.equal(res.size, 50 * 1024 * 1024);
      let read = 0;
      for await (const chunk of res.body) {
        read += (chunk as Buffer).length;
        if (read >= 1024 * 1024) break;
      }
      await new Promise((r) => setTimeout(r, 200));
      assert.ok(aborted, 'leaving the stream closed the connection');
    } finally {
      await out.close();
    }
  });
});

test('Retry-After: seconds or an HTTP date, capped, nothing for the unreadable or the past', async () => {
  const { retryAfterMs } = await import('./outbound.ts');
  const now = Date.parse('2026-11-28T10:00:00Z');
  assert.equal(retryAfterMs('2', now), 2000);
  assert.equal(retryAfterMs(' 120 ', now), 120_000);
  assert.equal(retryAfterMs('Sat, 28 Nov 2026 10:00:30 GMT', now), 30_000);
  assert.equal(retryAfterMs('999999', now), 3_600_000);
  assert.equal(retryAfterMs('Sat, 28 Nov 2026 09:00:00 GMT', now), undefined);
  assert.equal(retryAfterMs('soon', now), undefined);
  assert.equal(retryAfterMs('0', now), undefined);
  assert.equal(retryAfterMs(null, now), undefined);
});

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What event webhook tests share: a receiver of deliveries on this machine, and a wait for a condition. */

export type Received = { path: string; headers: IncomingHttpHeaders; body: string };

/**
 * A receiver on this machine: /ok (and /ok/<anything>, one path per endpoint) answers 200, /fail 500 (or 200 once
 * `healed`), /flaky 500 to the first attempt of each event and 200 to the next, /slow never in time, /huge 1 MB,
 * /redirect 302.
 */
export function startReceiver() {
  const received: Received[] = [];
  const state = { healed: false };
  const flaky = new Set<string>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      received.push({ path, headers: req.headers, body });
      if (path === '/ok' || path.startsWith('/ok/') || (path === '/fail' && state.healed))
        return res.writeHead(200).end('ok');
      if (path === '/fail') return res.writeHead(500).end('no');
      if (path === '/flaky') {
        const event = String(req.headers['smartconnect-event-id']);
        if (flaky.has(event)) return res.writeHead(200).end('ok');
        flaky.add(event);
        return res.writeHead(500).end('not yet');
      }
      if (path === '/redirect') return res.writeHead(302, { location: '/ok' }).end();
      if (path === '/huge') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('x'.repeat(1024 * 1024));
      }
      if (path === '/slow') {
        const timer = setTimeout(() => res.writeHead(200).end('late'), 15_000);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      res.writeHead(404).end();
    });
  });
  return {
    received,
    state,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function waitFor<T>(check: () => Promise<T | false | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

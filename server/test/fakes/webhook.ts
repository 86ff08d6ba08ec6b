import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** One request the endpoint received: its headers, raw body, and when it arrived (performance.now()). */
export type WebhookHit = { headers: IncomingHttpHeaders; body: string; at: number };

/**
 * A tenant's webhook endpoint (the API channel's delivery address): answers each request with the next status of
 * the script (the last one repeats), a 429 with `retryAfter` as its Retry-After, and records what it received.
 */
export async function startWebhookReceiver(
  statuses: number[] = [200],
  opts: { retryAfter?: string } = {},
): Promise<{ url: string; hits: WebhookHit[]; close(): Promise<void> }> {
  const hits: WebhookHit[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      hits.push({ headers: req.headers, body, at: performance.now() });
      res.statusCode = statuses[Math.min(hits.length - 1, statuses.length - 1)];
      if (res.statusCode === 429 && opts.retryAfter) res.setHeader('retry-after', opts.retryAfter);
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    hits,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

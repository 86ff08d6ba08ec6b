import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { withSpan } from '../../src/lib/tracing.ts';
import { createOrganisation, logSink, startTestServer, type TestServer } from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: OtlpValue }[];
};
type OtlpExport = {
  resourceSpans: {
    resource: { attributes: { key: string; value: OtlpValue }[] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
};

/** A local OTLP/HTTP receiver (what an OpenTelemetry collector listens with on :4318): takes JSON exports. */
async function otlpReceiver(): Promise<{
  url: string;
  exports: OtlpExport[];
  paths: string[];
  close(): Promise<void>;
}> {
  const exports: OtlpExport[] = [];
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      if (
        req.method === 'POST' &&
        req.url === '/v1/traces' &&
        req.headers['content-type'] === 'application/json'
      ) {
        exports.push(JSON.parse(body) as OtlpExport);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else res.writeHead(415).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    paths,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? v?.intValue ?? v?.boolValue;
};

async function waitFor(check: () => boolean, ms = 8000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('OpenTelemetry traces exported by OTLP', () => {
  let s: TestServer;
  let otlp: Awaited<ReturnType<typeof otlpReceiver>>;
  const logs = logSink();
  const spans = () =>
    otlp.exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((x) => x.spans)));
  before(async () => {
    otlp = await otlpReceiver();
    s = await startTestServer({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, LOG_LEVEL: 'info' },
      logStream: logs.stream,
    });
  });
  after(async () => {
    await s.close();
    await otlp.close();
  });

  test('HTTP, database, pipeline and provider spans arrive; logs carry the request and trace ids', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const res = await fetch(`${s.url}/api/health`, {
      headers: { traceparent: `00-${traceId}-${parentId}-01`, 'x-request-id': 'trace-req-1' },
    });
    assert.equal(res.status, 200);

    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId, { webhookUrl: 'http://127.0.0.1:9/down' });
    const first = await inbound(s, ch, { externalMessageId: 'trace-1' });
    assert.equal(first.status, 200);
    const chatId = first.body.entity.chatId as string;
    for (let i = 0; i < 100; i++) {
      if ((await op.api.get(`/api/chats/${chatId}`)).body.entity?.operator?.id === op.id) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal((await op.api.post(`/api/chats/${chatId}/messages`, { text: 'Hi' })).status, 200);

    await waitFor(() => spans().some((x) => x.name === 'provider.send'));
    const all = spans();
    // The request's server span continues the caller's trace, named by the route pattern.
    const health = all.find((x) => x.name === 'GET /api/health');
    assert.ok(health, `spans: ${[...new Set(all.map((x) => x.name))].join(', ')}`);
    assert.equal(health.traceId, traceId);
    assert.equal(health.parentSpanId, parentId);
    assert.equal(health.kind, 2); // SERVER
    assert.equal(attr(health, 'http.route'), '/api/health');
    assert.equal(attr(health, 'http.response.status_code'), 200);
    assert.equal(attr(health, 'request.id'), 'trace-req-1');
    // Its statement is a client span within it: text, never parameters.
    const select = all.find((x) => x.name === 'db.query' && x.parentSpanId === health.spanId);
    assert.ok(select);
    assert.equal(attr(select, 'db.query.text'), 'select 1');
    // A parameterised route is named by its pattern.
    assert.ok(all.some((x) => x.name === 'POST /api/channels/:id/inbound'));
    assert.ok(all.some((x) => x.name === 'pipeline.run'));
    const provider = all.find((x) => x.name === 'provider.send');
    assert.ok(provider);
    assert.equal(attr(provider, 'channel.type'), 'api');
    const delivery = all.find((x) => x.spanId === provider.parentSpanId);
    assert.equal(delivery?.name, 'outbox.deliver');
    // The resource names the service.
    const resource = otlp.exports[0].resourceSpans[0].resource.attributes;
    assert.equal(resource.find((a) => a.key === 'service.name')?.value.stringValue, 'smartconnect');
    assert.equal(resource.find((a) => a.key === 'service.version')?.value.stringValue, '1.0.0');
    // No parameter value (the customer's text) is recorded anywhere.
    assert.equal(JSON.stringify(otlp.exports).includes('trace-1'), false);

    // The request's log lines carry its request id and trace id.
    const lines = logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => l.reqId === 'trace-req-1' && l.msg === 'request completed');
    assert.ok(line, 'a log line of the request');
    assert.equal(line.traceId, traceId);
    assert.equal(line.spanId, health.spanId);

    // A line logged inside a traced operation outside any request (a job's) carries that operation's ids.
    let opIds: { traceId: string; spanId: string } | undefined;
    await withSpan('test.operation', {}, async (span) => {
      opIds = span && { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
      s.app.log.warn({ job: 'x' }, 'inside a job');
    });
    const jobLine = logs.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === 'inside a job');
    assert.ok(opIds && jobLine);
    assert.equal(jobLine.traceId, opIds.traceId);
    assert.equal(jobLine.spanId, opIds.spanId);
    // Request lines carry the ids once (bound), not twice.
    assert.equal(
      logs.lines
        .find((l) => l.includes('"reqId":"trace-req-1"') && l.includes('request completed'))
        ?.split('"traceId"').length,
      2,
    );
  });
});

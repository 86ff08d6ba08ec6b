import {
  rateVital,
  type TelemetryPayload,
  telemetryConfigDto,
  telemetryPayload,
  type VitalsSummaryDto,
  vitalsSummaryDto,
  WEB_VITALS,
  type WebVital,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { definePublicRoute, defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { reserve } from '../../lib/rate-limit.ts';
import * as Q from './queries.ts';

/** The collector's limits: body size, requests per address and minute, retention, summary size. */
export const COLLECTOR = {
  bodyLimit: 256 * 1024,
  // Per client address: an office behind one NAT address shares it (each tab sends a few batches a minute).
  perMinute: 600,
  vitalsRetentionMs: 8 * 86_400_000,
  itemsRetentionMs: 7 * 86_400_000,
  pruneEveryMs: 60_000,
  summaryPages: 50,
} as const;

const DAY_MS = 86_400_000;
const ID_SEGMENT =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+|[0-9a-f]{16,}|[A-Za-z0-9_-]{24,})$/i;

/** The page a measurement belongs to, as a route pattern: path only (no query: it may hold a token), ids as :id. */
export function pageOf(url: string | undefined): string {
  let path = '/';
  try {
    path = new URL(url ?? '/', 'http://page.invalid').pathname;
  } catch {}
  const pattern = path
    .split('/')
    .map((s) => (ID_SEGMENT.test(s) ? ':id' : s))
    .join('/');
  return pattern.length > 200 ? pattern.slice(0, 200) : pattern || '/';
}

function vitalsOf(body: TelemetryPayload, page: string, appVersion: string | null): Q.VitalRow[] {
  const rows: Q.VitalRow[] = [];
  for (const m of body.measurements ?? []) {
    if (m.type !== 'web-vitals') continue;
    for (const name of WEB_VITALS) {
      const value = m.values[name.toLowerCase()];
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) continue;
      rows.push({ page, name, value, rating: rateVital(name, value), appVersion });
    }
  }
  return rows;
}

function itemsOf(body: TelemetryPayload, page: string): Q.ItemRow[] {
  return [
    ...(body.logs ?? []).map((body) => ({ kind: 'log' as const, page, body })),
    ...(body.exceptions ?? []).map((body) => ({ kind: 'exception' as const, page, body })),
    ...(body.events ?? []).map((body) => ({ kind: 'event' as const, page, body })),
  ];
}

const lastPrune = new WeakMap<object, number>();
async function pruneNow(app: AppContext, now: Date): Promise<void> {
  const last = lastPrune.get(app.db) ?? 0;
  if (now.getTime() - last < COLLECTOR.pruneEveryMs && last <= now.getTime()) return;
  lastPrune.set(app.db, now.getTime());
  await Q.prune(
    app.db,
    new Date(now.getTime() - COLLECTOR.vitalsRetentionMs),
    new Date(now.getTime() - COLLECTOR.itemsRetentionMs),
  );
}

export const telemetryRoutes: ModuleRoutes = (fastify, app) => {
  const { telemetry } = app.config;

  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/telemetry/config',
      access: 'public',
      raw: true,
      response: telemetryConfigDto,
      summary: 'Where the web app sends its telemetry (TELEMETRY, TELEMETRY_URL, TELEMETRY_API_KEY)',
      tags: ['system'],
    },
    async ({ reply }) => {
      reply.header('cache-control', 'no-cache');
      return {
        enabled: telemetry.enabled,
        url: telemetry.url ?? '/api/telemetry',
        apiKey: telemetry.url ? (telemetry.apiKey ?? null) : null,
      };
    },
  );

  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/telemetry',
      access: 'public',
      raw: true,
      // 202 with an empty body.
      rawText: true,
      body: telemetryPayload,
      bodyLimit: COLLECTOR.bodyLimit,
      summary:
        'The built-in web telemetry collector (Faro transport body): web vitals, logs, exceptions, events; 202. ' +
        'Rate-limited per address (429 with Retry-After); 404 with TELEMETRY=off',
      tags: ['system'],
    },
    async ({ req, reply, body }) => {
      if (!telemetry.enabled) throw new AppError('notFoundException');
      const now = app.clock.now();
      await reserve(app.db, [`telemetry:${req.ip}`], { max: COLLECTOR.perMinute, windowMs: 60_000 }, now);
      const page = pageOf(body.meta?.page?.url);
      const version = body.meta?.app?.version?.slice(0, 50) ?? null;
      await app.db.tx(async (q) => {
        await Q.insertVitals(q, now, vitalsOf(body, page, version));
        await Q.insertItems(q, now, itemsOf(body, page));
      });
      await pruneNow(app, now);
      return reply.status(202).header('cache-control', 'no-store').send();
    },
  );

  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/telemetry/vitals',
      access: { right: 'RIGHT_OBSERVER' },
      response: vitalsSummaryDto,
      summary: 'Web vitals per page: p75 and rating over the last 24 hours and 7 days (platform staff)',
      tags: ['system'],
    },
    async (): Promise<VitalsSummaryDto> => {
      const now = app.clock.now().getTime();
      const rows = await Q.vitalStats(
        app.db,
        new Date(now - DAY_MS),
        new Date(now - 7 * DAY_MS),
        COLLECTOR.summaryPages,
      );
      const pages = new Map<string, VitalsSummaryDto['pages'][number]>();
      for (const r of rows) {
        const name = r.name as WebVital;
        const entry = pages.get(r.page) ?? { page: r.page, day: [], week: [] };
        pages.set(r.page, entry);
        const round = (v: number) => (name === 'CLS' ? Math.round(v * 1000) / 1000 : Math.round(v));
        if (r.day_n > 0 && r.day_p75 !== null) {
          const p75 = round(r.day_p75);
          entry.day.push({ name, p75, rating: rateVital(name, p75), samples: r.day_n });
        }
        const p75 = round(r.week_p75);
        entry.week.push({ name, p75, rating: rateVital(name, p75), samples: r.week_n });
      }
      const order = (a: { name: WebVital }, b: { name: WebVital }) =>
        WEB_VITALS.indexOf(a.name) - WEB_VITALS.indexOf(b.name);
      for (const p of pages.values()) {
        p.day.sort(order);
        p.week.sort(order);
      }
      return { pages: [...pages.values()] };
    },
  );
};

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The Bots Long Poll API of one community (https://dev.vk.com/ru/api/bots-long-poll/getting-started), as documented:
 * groups.setLongPollSettings turns it on (with the community management right) and chooses the events;
 * groups.getLongPollServer answers `{key, server, ts}` (error 100 while it is off); the server answers
 * `{server}?act=a_check&key=&ts=&wait=` with `{ts, updates}` (events after `ts`, waiting up to `wait` seconds, at
 * most 90, for one), `{failed: 1, ts}` when events before it were lost, `{failed: 2}` for an expired key and
 * `{failed: 3}` when the events are gone (a new key and ts are needed).
 */
export type VkLongPoll = {
  enabled: boolean;
  /** The settings last set (event types as '1'/'0', api_version). */
  settings: Record<string, string>;
  /** Queues a community event (group_id and event_id filled in unless given); a waiting request answers at once. */
  push(event: Record<string, unknown>): void;
  /** The key handed out stops working: the next request answers `failed: 2`. */
  expireKey(): void;
  /** Events up to now are lost: a request from an earlier ts answers `failed: 1` with the current ts. */
  loseHistory(): void;
  /** Whether a request waits for events now. */
  readonly waiting: boolean;
  /** The requests the server got: their key, ts and wait. */
  checks: { key: string; ts: string; wait: string }[];
  setLongPollSettings(params: Record<string, string>): void;
  server(baseUrl: string): { key: string; server: string; ts: string };
  handle(url: URL, req: IncomingMessage, res: ServerResponse): void;
};

export function createVkLongPoll(groupId: () => number): VkLongPoll {
  const events: Record<string, unknown>[] = [];
  const keys = new Set<string>();
  let lostBefore = 0;
  let waiter: (() => void) | null = null;
  const json = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const lp: VkLongPoll = {
    enabled: false,
    settings: {},
    checks: [],
    push(event) {
      events.push({
        group_id: groupId(),
        event_id: randomBytes(20).toString('hex'),
        v: lp.settings.api_version ?? '5.199',
        ...event,
      });
      waiter?.();
    },
    expireKey() {
      keys.clear();
    },
    loseHistory() {
      lostBefore = events.length;
    },
    get waiting() {
      return waiter !== null;
    },
    setLongPollSettings(params) {
      lp.settings = { ...lp.settings, ...params };
      if (params.enabled !== undefined) lp.enabled = params.enabled === '1';
    },
    server(baseUrl) {
      const key = randomBytes(20).toString('hex');
      keys.add(key);
      return { key, server: `${baseUrl}/lp/${groupId()}`, ts: String(events.length) };
    },
    handle(url, req, res) {
      const q = url.searchParams;
      const key = q.get('key') ?? '';
      const ts = q.get('ts') ?? '';
      const wait = q.get('wait') ?? '';
      lp.checks.push({ key, ts, wait });
      if (q.get('act') !== 'a_check' || !keys.has(key)) return json(res, { failed: 2 });
      const from = Number(ts);
      if (!/^\d+$/.test(ts) || from > events.length) return json(res, { failed: 3 });
      if (from < lostBefore) return json(res, { failed: 1, ts: String(events.length) });
      const answer = () => json(res, { ts: String(events.length), updates: events.slice(from) });
      const seconds = Math.min(Number(wait) || 0, 90);
      if (events.length > from || seconds <= 0) return answer();
      const timer = setTimeout(done, seconds * 1000);
      function done() {
        clearTimeout(timer);
        if (waiter === done) waiter = null;
        if (!res.writableEnded) answer();
      }
      waiter = done;
      req.on('close', () => {
        clearTimeout(timer);
        if (waiter === done) waiter = null;
      });
    },
  };
  return lp;
}

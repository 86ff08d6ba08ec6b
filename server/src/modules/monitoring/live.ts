import {
  type LoggedEventType,
  MONITORING_PUSH_MS,
  type MonitoringPush,
  type MonitoringRow,
  type MonitoringView,
  monitoringViewParams,
} from '@smartconnect/contracts';
import { type AppContext, stateSlot } from '../../context.ts';
import type { StoredEvent } from '../../realtime/bus.ts';
import type { Topic, TopicSocket } from '../../realtime/topics.ts';
import * as Q from './queries.ts';
import { inScope, type MonitorScope, viewRows } from './service.ts';

/** Events that move a figure of the tables: chats created, taken, transferred, closed, queued; presence. */
const TRIGGERS = new Set<LoggedEventType>([
  'chat.created',
  'chat.updated',
  'chat.assigned',
  'chat.transferred',
  'chat.closed',
  'counters.changed',
  'presence.changed',
  'access.changed',
]);

type Subscriber = { socket: TopicSocket; view: MonitoringView; needsFull: boolean };

/** One organisation watched on this instance: its subscribers and the rows last pushed per view. */
type OrgLive = {
  subs: Map<string, Subscriber>;
  last: Map<MonitoringView, Map<string, string>>;
  timer: NodeJS.Timeout | null;
  lastRun: number;
  /** Runs of one organisation go one after another, so a later push never carries older rows. */
  chain: Promise<void>;
};

/** The organisations with live monitors, each with its subscribers and pending push (timers cleared on close). */
const LIVE = stateSlot(
  'monitoring.live',
  () => new Map<string, OrgLive>(),
  (orgs) => {
    for (const org of orgs.values()) if (org.timer) clearTimeout(org.timer);
    orgs.clear();
  },
);
const orgsOf = (app: AppContext) => app.state.of(app, LIVE);

const scopeOfSocket = (s: TopicSocket): MonitorScope => ({
  all: s.rights.has('AUTHORITY_ALL_CHATS'),
  teams: s.teams,
});

function enqueue(app: AppContext, org: OrgLive, fn: () => Promise<void>): void {
  org.chain = org.chain.then(fn).catch((err) => app.log.warn({ err }, 'monitoring push failed'));
}

/** Coalesces a burst: at most one recomputation per organisation every MONITORING_PUSH_MS. */
function schedule(app: AppContext, orgId: string, org: OrgLive): void {
  if (org.timer) return;
  const delay = Math.max(0, org.lastRun + MONITORING_PUSH_MS - performance.now());
  org.timer = setTimeout(() => {
    org.timer = null;
    org.lastRun = performance.now();
    enqueue(app, org, () => run(app, orgId, org));
  }, delay);
  org.timer.unref();
}

/** Recomputes the views watched in the organisation and pushes to each subscriber what changed in its scope. */
async function run(app: AppContext, orgId: string, org: OrgLive): Promise<void> {
  if (!org.subs.size) return;
  if (!(await Q.organisationOptions(app.db, orgId)).includes('OPTION_ONLINE_MONITORING')) {
    for (const sub of [...org.subs.values()]) sub.socket.refuse('optionUnavailableException');
    org.subs.clear();
    return;
  }
  const views = new Set([...org.subs.values()].map((s) => s.view));
  const at = app.clock.now().toISOString();
  for (const view of views) {
    const rows = await viewRows(app.db, orgId, view);
    const before = org.last.get(view) ?? new Map<string, string>();
    const now = new Map(rows.map((r) => [r.id, JSON.stringify(r)]));
    const changed = rows.filter((r) => before.get(r.id) !== now.get(r.id));
    const removed = [...before.keys()].filter((id) => !now.has(id));
    org.last.set(view, now);
    for (const sub of org.subs.values()) {
      if (sub.view !== view) continue;
      if (!sub.socket.rights.has('AUTHORITY_ALL_STAT')) {
        org.subs.delete(sub.socket.id);
        sub.socket.refuse('accessDeniedException');
        continue;
      }
      if (sub.needsFull) {
        sub.needsFull = false;
        push(sub, { view, at, full: true, rows, removed: [] });
      } else if (changed.length || removed.length)
        push(sub, { view, at, full: false, rows: changed, removed });
    }
  }
}

function push(sub: Subscriber, p: MonitoringPush): void {
  const scope = scopeOfSocket(sub.socket);
  const rows = p.rows.filter((r: MonitoringRow) => inScope(p.view, r, scope));
  if (!p.full && !rows.length && !p.removed.length) return;
  sub.socket.push({ ...p, rows });
}

/**
 * The `monitoring` topic of the realtime socket: a holder of AUTHORITY_ALL_STAT in an organisation with
 * OPTION_ONLINE_MONITORING subscribes to one view and gets its rows at once, then the rows that change. Every
 * instance recomputes for its own subscribers from the events the bus brings it, so scale-out needs nothing more.
 */
export const monitoringTopic: Topic = {
  async subscribe(app, socket, params) {
    const parsed = monitoringViewParams.safeParse(params);
    if (!parsed.success) return 'validationException';
    if (!socket.rights.has('AUTHORITY_ALL_STAT')) return 'accessDeniedException';
    if (!(await Q.organisationOptions(app.db, socket.organisationId)).includes('OPTION_ONLINE_MONITORING'))
      return 'optionUnavailableException';
    if (!socket.open) return null;
    const orgs = orgsOf(app);
    let org = orgs.get(socket.organisationId);
    if (!org) {
      org = { subs: new Map(), last: new Map(), timer: null, lastRun: 0, chain: Promise.resolve() };
      orgs.set(socket.organisationId, org);
    }
    const sub: Subscriber = { socket, view: parsed.data.view, needsFull: true };
    org.subs.set(socket.id, sub);
    const view = sub.view;
    const live = org;
    // The first rows go through the organisation's queue, after any push already under way.
    enqueue(app, live, async () => {
      if (!sub.needsFull || live.subs.get(socket.id) !== sub) return;
      const rows = await viewRows(app.db, socket.organisationId, view);
      if (!live.last.has(view)) live.last.set(view, new Map(rows.map((r) => [r.id, JSON.stringify(r)])));
      sub.needsFull = false;
      push(sub, { view, at: app.clock.now().toISOString(), full: true, rows, removed: [] });
    });
    return null;
  },

  unsubscribe(app, socket) {
    const orgs = orgsOf(app);
    const org = orgs.get(socket.organisationId);
    if (!org?.subs.delete(socket.id) || org.subs.size) return;
    if (org.timer) clearTimeout(org.timer);
    orgs.delete(socket.organisationId);
  },

  onEvent(app, event: StoredEvent) {
    if (!TRIGGERS.has(event.type)) return;
    const org = app.state.peek(LIVE)?.get(event.organisationId);
    if (!org) return;
    // A monitor whose teams or rights changed gets its whole table again, in its new scope.
    if (event.type === 'access.changed') {
      const userId = (event.payload as { userId?: string } | null)?.userId;
      for (const sub of org.subs.values()) if (sub.socket.userId === userId) sub.needsFull = true;
    }
    schedule(app, event.organisationId, org);
  },

  stop(app) {
    const orgs = app.state.peek(LIVE);
    if (!orgs) return;
    for (const org of orgs.values()) if (org.timer) clearTimeout(org.timer);
    orgs.clear();
  },
};

/**
 * The soak bench's figures (bench/soak.ts): the cluster script's output, latencies per minute, each instance's RSS
 * over its life and the checks' verdicts.
 */
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : Number.NaN;
};

/** A process's resident memory in MB (NaN once it is gone). */
export const rssMb = (pid: number) => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
};

/** Least-squares slope of y over x. */
export function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const sxy = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return sxx ? sxy / sxx : Number.NaN;
}

/**
 * Shows the cluster script's own lines (`[cluster]`, stamped by `stamp`) and follows its rolling restarts; the
 * instances' log goes to `logFile`, their error lines are kept.
 */
export function watchCluster(proc: ChildProcess, logFile: string, stamp: () => string) {
  const state = {
    /** A rolling restart is under way (a queued round starts right after the previous one's `done`). */
    rolling: false,
    lastLine: 0,
    /** When each instance was told to stop. */
    restarts: [] as number[],
    /** Each restarted instance's graceful stop: how long it took and its exit code. */
    stops: [] as { name: string; ms: number; exit: string }[],
    errors: [] as string[],
  };
  let stopping = new Map<string, number>();
  let rest = '';
  const onData = (d: Buffer) => {
    const lines = (rest + d.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('[cluster]')) {
        appendFileSync(logFile, `${line}\n`);
        if (/"level":(50|60)/.test(line) || /\bError\b/.test(line)) state.errors.push(line.slice(0, 300));
        continue;
      }
      console.log(`  ${stamp()} ${line}`);
      state.lastLine = performance.now();
      if (/SIGHUP: rolling restart|rolling restart: (building|stopping)/.test(line)) state.rolling = true;
      const stop = /rolling restart: stopping (\S+)/.exec(line);
      if (stop) {
        state.restarts.push(performance.now());
        stopping.set(stop[1], performance.now());
      }
      const exit = /rolling restart: (\S+) exited \((\w+)\)/.exec(line);
      if (exit)
        state.stops.push({
          name: exit[1],
          ms: performance.now() - (stopping.get(exit[1]) ?? 0),
          exit: exit[2],
        });
      if (/rolling restart: (done|the build failed)|stopping the round|rolling restart failed/.test(line)) {
        state.rolling = false;
        stopping = new Map();
      }
    }
  };
  proc.stdout?.on('data', onData);
  proc.stderr?.on('data', onData);
  return state;
}

export type Timed = { at: number; ms: number };

/** p50 / p99 per minute of the inbound answer, the reply answer and the delivery, with the restarts of each. */
export function printMinutes(o: {
  minuteOf: (at: number) => number;
  minutes: number;
  inbound: Timed[];
  replies: Timed[];
  delivery: Timed[];
  restarts: number[];
}) {
  const byMinute = (xs: Timed[]) => {
    const m = new Map<number, number[]>();
    for (const x of xs) m.set(o.minuteOf(x.at), [...(m.get(o.minuteOf(x.at)) ?? []), x.ms]);
    return m;
  };
  const [inbound, replies, delivery] = [byMinute(o.inbound), byMinute(o.replies), byMinute(o.delivery)];
  const restarts = byMinute(o.restarts.map((at) => ({ at, ms: 0 })));
  const f = (xs: number[] = []) =>
    `${pct(xs, 50).toFixed(0).padStart(5)} / ${pct(xs, 99).toFixed(0).padStart(5)} (${String(xs.length).padStart(4)})`;
  console.log(
    '\nper minute, ms: inbound answer p50 / p99 (n) | reply answer p50 / p99 (n) | delivery p50 / p99 (n) | restarts',
  );
  const last = Math.max(o.minutes - 1, ...inbound.keys(), ...replies.keys());
  for (let m = 0; m <= last; m++)
    console.log(
      `  minute ${String(m + 1).padStart(2)}: ${f(inbound.get(m))} | ${f(replies.get(m))} | ${f(delivery.get(m))} | ${restarts.get(m)?.length ?? 0}`,
    );
  const all = (xs: Timed[]) => f(xs.map((x) => x.ms));
  console.log(
    `  whole run: inbound ${all(o.inbound)} | reply ${all(o.replies)} | delivery ${all(o.delivery)}`,
  );
}

export type Life = { name: string; pid: number; points: { x: number; y: number }[] };

/**
 * Each instance life's RSS: first, last, max and the slope after its first minute (MB/min). Answers the lives of at
 * least 5 minutes whose slope is over `maxSlope`.
 */
export function printLives(lives: Iterable<Life>, maxSlope: number): string[] {
  console.log('\nRSS per instance life, MB (slope after its first minute):');
  const growing: string[] = [];
  for (const { name, pid, points } of lives) {
    const settled = points.filter((p) => p.x >= points[0].x + 1);
    const s = slope(settled);
    const judged = settled.length > 1 && settled[settled.length - 1].x - settled[0].x >= 5;
    if (judged && s > maxSlope) growing.push(`${name} pid ${pid}: ${s.toFixed(2)} MB/min`);
    const last = points[points.length - 1];
    console.log(
      `  ${name} pid ${pid}: ${(last.x - points[0].x).toFixed(1)} min, first ${points[0].y.toFixed(0)}, last ${last.y.toFixed(0)}, ` +
        `max ${Math.max(...points.map((p) => p.y)).toFixed(0)}, slope ${Number.isNaN(s) ? '-' : s.toFixed(2)} MB/min` +
        `${judged ? '' : ' (too short to judge)'}`,
    );
  }
  return growing;
}

/** Prints each check with what broke it; true when none did. */
export function printChecks(checks: [string, string[]][]): boolean {
  console.log('');
  for (const [what, bad] of checks)
    console.log(
      `${bad.length ? 'FAIL' : 'ok  '} ${what}${bad.length ? `: ${bad.length}, e.g. ${bad.slice(0, 5).join('; ')}` : ''}`,
    );
  return checks.every(([, bad]) => bad.length === 0);
}

import type { ReportPeriod } from '@smartconnect/contracts';
import { useSyncExternalStore } from 'react';

/**
 * The report period, shared by every tab of Reports (and kept for the browser tab's session): a named period or
 * an arbitrary range/date. Days are the organisation's (the server's default zone), so no zone is sent.
 */
export type PeriodState = { period: ReportPeriod; from: string; to: string };

const KEY = 'sc-report-period';
const listeners = new Set<() => void>();
let state: PeriodState = read();

function read(): PeriodState {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (raw) return { period: 'last7', from: '', to: '', ...JSON.parse(raw) };
  } catch {
    // No storage (private mode): the default period.
  }
  return { period: 'last7', from: '', to: '' };
}

export function setPeriodState(patch: Partial<PeriodState>) {
  state = { ...state, ...patch };
  try {
    sessionStorage.setItem(KEY, JSON.stringify(state));
  } catch {
    // Not kept: still shared while the page lives.
  }
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Whether the chosen period is complete (§5: a start and end date or a chosen period). */
export const isComplete = (s: PeriodState) =>
  s.period === 'custom' ? !!s.from && !!s.to && s.from <= s.to : s.period === 'date' ? !!s.from : true;

/** The query string of a period (plus extra parameters). */
export function periodParams(s: PeriodState, extra: Record<string, string> = {}): URLSearchParams {
  const params = new URLSearchParams({ period: s.period, ...extra });
  if (s.period === 'custom' || s.period === 'date') params.set('from', s.from);
  if (s.period === 'custom') params.set('to', s.to);
  return params;
}

export function usePeriod(): PeriodState & { complete: boolean } {
  const s = useSyncExternalStore(subscribe, () => state);
  return { ...s, complete: isComplete(s) };
}

/**
 * Report periods in a time zone: a local calendar range turned into UTC instants [start, end).
 * Rollups are hourly UTC buckets, so any zone whose offset is a whole number of hours (at every instant of the
 * range, DST included) is exact. For :30/:45 zones an hour bucket that straddles local midnight is counted in the
 * local day where the bucket starts (at most 45 minutes of the edge hours are attributed to the neighbouring day).
 */

export type PeriodName = 'today' | 'yesterday' | 'last7' | 'last30' | 'custom' | 'date';
export type Period = { start: Date; end: Date; from: string; to: string };

const partsFormat = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string) {
  let f = partsFormat.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormat.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** The local wall clock of an instant in a zone. */
export function localParts(t: number, timeZone: string) {
  const p = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(t))
      .map((x) => [x.type, x.value]),
  );
  return { y: +p.year, m: +p.month, d: +p.day, h: +p.hour, min: +p.minute, s: +p.second };
}

/** The zone's offset from UTC at an instant, in ms (east positive). */
export function offsetMs(t: number, timeZone: string): number {
  const p = localParts(t, timeZone);
  const asUtc = Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s);
  return asUtc - Math.floor(t / 1000) * 1000;
}

/** The instant local midnight starts on a date (a day that starts at 01:00 after a DST gap starts then). */
export function zonedMidnight(date: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d);
  let t = wall - offsetMs(wall, timeZone);
  const second = wall - offsetMs(t, timeZone);
  if (second !== t) t = Math.min(t, second);
  // In a gap at midnight the wall clock skips; take the first instant that is on this date.
  const p = localParts(t, timeZone);
  if (p.d !== d) t += 3_600_000 - (p.min * 60_000 + p.s * 1000);
  return new Date(t);
}

/** The local date (YYYY-MM-DD) of an instant. */
export function localDate(t: number, timeZone: string): string {
  const p = localParts(t, timeZone);
  return `${p.y}-${String(p.m).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`;
}

export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

export function dayCount(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The inclusive local dates of a named period (custom: from..to; date: from alone), as UTC instants. */
export function resolvePeriod(
  period: PeriodName,
  now: Date,
  timeZone: string,
  from?: string,
  to?: string,
): Period {
  const today = localDate(now.getTime(), timeZone);
  let a: string;
  let b: string;
  switch (period) {
    case 'today':
      a = b = today;
      break;
    case 'yesterday':
      a = b = addDays(today, -1);
      break;
    case 'last7':
      a = addDays(today, -6);
      b = today;
      break;
    case 'last30':
      a = addDays(today, -29);
      b = today;
      break;
    case 'date':
      a = b = from as string;
      break;
    default:
      a = from as string;
      b = to as string;
  }
  return { start: zonedMidnight(a, timeZone), end: zonedMidnight(addDays(b, 1), timeZone), from: a, to: b };
}

import { useEffect, useState } from 'react';

/** The current time, ticking every `ms` (live waiting times); one timer per list, not per row. */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}

type T = (key: string, options?: Record<string, unknown>) => string;

/** 42 s, 5:07, 1:02:03, 2 d 3 h (units in the user's language): how long since `iso`. */
export function elapsed(iso: string, now: number, t: T): string {
  const s = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (s < 60) return t('workspace.seconds', { n: s });
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h >= 24) return t('workspace.daysHours', { d: Math.floor(h / 24), h: h % 24 });
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

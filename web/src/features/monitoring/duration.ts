/** A duration in §2.6 units: sec, min, h; a day or longer reads 'more than 1 day'. */
export type DurationParts =
  | { unit: 'sec'; n: number }
  | { unit: 'min'; n: number; sec: number }
  | { unit: 'h'; n: number; min: number }
  | { unit: 'moreThanDay' };

export function durationParts(ms: number): DurationParts {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return { unit: 'sec', n: s };
  if (s < 3600) return { unit: 'min', n: Math.floor(s / 60), sec: s % 60 };
  if (s < 86_400) return { unit: 'h', n: Math.floor(s / 3600), min: Math.floor((s % 3600) / 60) };
  return { unit: 'moreThanDay' };
}

type T = (key: string, opts?: Record<string, unknown>) => string;

/** '42 sec', '5 min 3 sec', '2 h 10 min', 'more than 1 day' (or the locale's words). */
export function formatDuration(t: T, ms: number): string {
  const p = durationParts(ms);
  switch (p.unit) {
    case 'sec':
      return t('monitoring.units.sec', { n: p.n });
    case 'min':
      return p.sec
        ? `${t('monitoring.units.min', { n: p.n })} ${t('monitoring.units.sec', { n: p.sec })}`
        : t('monitoring.units.min', { n: p.n });
    case 'h':
      return p.min
        ? `${t('monitoring.units.h', { n: p.n })} ${t('monitoring.units.min', { n: p.min })}`
        : t('monitoring.units.h', { n: p.n });
    default:
      return t('monitoring.units.moreThanDay');
  }
}

/**
 * The one phone normaliser (issue 29): every per-phone limit and every stored phone use it, so `+7 916 …`, `7916…`
 * and `8 (916) …` are one number. E.164 form: '+' and the digits, spaces, dashes, dots and brackets dropped. Without
 * a '+' the digits are read as an international number with its country code (E.164 without its '+'), except the
 * Russian trunk form 8XXXXXXXXXX (11 digits from 8), which is +7XXXXXXXXXX. No validation library: the landing page's
 * small script shares it.
 */
export function toE164(raw: string): string {
  const t = raw.trim();
  const digits = t.replace(/\D/g, '');
  if (!t.startsWith('+') && digits.length === 11 && digits.startsWith('8')) return `+7${digits.slice(1)}`;
  return `+${digits}`;
}

/** Only digits, spaces, dashes, dots, brackets and one leading +, with `min` to `max` digits. */
export const isPhoneInput = (raw: string, min = 5, max = 20) => {
  const t = raw.trim();
  if (!/^\+?[\d\s().-]+$/.test(t)) return false;
  const n = t.replace(/\D/g, '').length;
  return n >= min && n <= max;
};

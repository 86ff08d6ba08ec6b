/** The landing page's rules without the validation library, so the page's small script can share them. */
export const LANDING_LIMITS = { name: 255, company: 255 } as const;
export const LANDING_FORMS = ['short', 'long', 'modal'] as const;
export type LandingForm = (typeof LANDING_FORMS)[number];

/** A phone as the landing page takes it: digits with an optional leading +, spaces, dashes and brackets dropped. */
export const landingPhone = (v: string) => {
  const t = v.trim();
  return (t.startsWith('+') ? '+' : '') + t.replace(/\D/g, '');
};
/** 5 to 20 digits once cleaned, and nothing but digits, spaces, dashes, dots, brackets and a leading +. */
export const isLandingPhone = (v: string) =>
  /^\+?[\d\s().-]+$/.test(v.trim()) && /^\+?\d{5,20}$/.test(landingPhone(v));

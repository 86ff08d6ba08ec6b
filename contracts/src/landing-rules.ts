/** The landing page's rules without the validation library, so the page's small script can share them. */
export const LANDING_LIMITS = { name: 255, company: 255 } as const;
export const LANDING_FORMS = ['short', 'long', 'modal'] as const;
export type LandingForm = (typeof LANDING_FORMS)[number];

import { isPhoneInput, toE164 } from './phone.ts';

/** A phone as the landing page (and sign-up) stores it: E.164, by the one normaliser (phone.ts). */
export const landingPhone = toE164;
/** 5 to 20 digits once cleaned, and nothing but digits, spaces, dashes, dots, brackets and a leading +. */
export const isLandingPhone = (v: string) => isPhoneInput(v);

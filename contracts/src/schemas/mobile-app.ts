import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/** Where an APNs key sends: Apple's production or sandbox (development builds) server. */
export const APNS_ENVIRONMENTS = ['production', 'sandbox'] as const;
export type ApnsEnvironment = (typeof APNS_ENVIRONMENTS)[number];

/** An Apple key id or team id: ten upper-case letters or digits. */
const appleId = z
  .string(M.tokenIncorrect)
  .trim()
  .regex(/^[A-Z0-9]{10}$/, M.tokenIncorrect);

/**
 * The `mobile_app` channel (§3, issue 34): a customer's own app with our mobile SDK. The identity secret is made by us
 * (shown once at creation and when rotated with `rotateIdentitySecret`); the push credentials are the app's: a
 * Firebase service account's JSON key (FCM HTTP v1) and/or an APNs token key (.p8, its key id, the team id, the app's
 * bundle id, the production or sandbox server). Both are optional and checked when saved; secrets are write-only.
 * An empty string (or null) removes that provider's credentials.
 */
export const mobileAppCreateFields = z.object({
  fcmServiceAccount: z.string(M.tokenIncorrect).trim().max(16_384, M.tokenIncorrect).nullable().optional(),
  apnsKey: z.string(M.tokenIncorrect).trim().max(8192, M.tokenIncorrect).nullable().optional(),
  apnsKeyId: appleId.optional(),
  apnsTeamId: appleId.optional(),
  apnsBundleId: z
    .string(M.valueIncorrect)
    .trim()
    .regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, M.valueIncorrect)
    .max(155, M.valueIncorrect)
    .optional(),
  apnsEnvironment: z.enum(APNS_ENVIRONMENTS, M.valueIncorrect).optional(),
  /** Editing: make a new identity secret (the old one stops working at once); answered once. */
  rotateIdentitySecret: z.boolean(M.valueIncorrect).optional(),
});

import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { isHttpUrl } from './channels.ts';

/**
 * Web push for operators (issue 34): a browser of the installed web app subscribes with the server's VAPID key
 * (`GET /api/push/key`), and a new chat or client message for an operator with no open tab comes as a notification.
 */
export const PUSH_LIMITS = {
  /** Browsers one user may have subscribed; a new one beyond replaces their oldest. */
  subscriptionsPerUser: 20,
  endpointMax: 2048,
  /** The longest key text taken (the browser's P-256 public key is 87 characters, its auth secret 22). */
  p256dhMax: 128,
} as const;

/** A base64url text of a fixed form (the browser's key material). */
const keyText = (pattern: RegExp) =>
  z
    .string(M.valueIncorrect)
    .trim()
    .max(PUSH_LIMITS.p256dhMax, M.valueIncorrect)
    .regex(pattern, M.valueIncorrect);

/** What `PushSubscription.toJSON()` gives in the browser (expirationTime is ignored). */
export const pushSubscribeSchema = z.object({
  endpoint: z
    .string(M.valueIncorrect)
    .trim()
    .max(PUSH_LIMITS.endpointMax, M.valueIncorrect)
    .refine(isHttpUrl, M.valueIncorrect),
  keys: z.object(
    {
      // An uncompressed P-256 point (65 bytes, first 0x04) and a 16-byte secret, base64url (padding allowed).
      p256dh: keyText(/^B[A-Za-z0-9_-]{86}=?$/),
      auth: keyText(/^[A-Za-z0-9_-]{22}(==)?$/),
    },
    M.valueIncorrect,
  ),
});
export type PushSubscribeBody = z.infer<typeof pushSubscribeSchema>;

/** What a user wants pushed: new chats for them (assigned or in their teams' queue), new client messages. */
export const pushSettingsSchema = z.object({
  newChats: z.boolean(M.valueIncorrect),
  newMessages: z.boolean(M.valueIncorrect),
});
export type PushSettings = z.infer<typeof pushSettingsSchema>;

export const pushKeyDto = z.object({ publicKey: z.string() });
export type PushKeyDto = z.infer<typeof pushKeyDto>;

export const pushSubscriptionDto = z.object({
  id: z.string(),
  endpoint: z.string(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastSuccessAt: z.string().nullable(),
});
export type PushSubscriptionDto = z.infer<typeof pushSubscriptionDto>;

/** `GET /api/push/settings`: the user's choices and their subscribed browsers. */
export const pushStateDto = pushSettingsSchema.extend({ subscriptions: z.array(pushSubscriptionDto) });
export type PushStateDto = z.infer<typeof pushStateDto>;

export const pushTestDto = z.object({ sent: z.number().int() });
export type PushTestDto = z.infer<typeof pushTestDto>;

/**
 * The JSON payload of every notification (encrypted for the browser): the service worker (web/public/push-sw.js)
 * shows `title` and `body` and opens `url` on a click; `tag` folds notifications of one chat together.
 */
export type PushPayload = { title: string; body: string; url: string; tag: string };

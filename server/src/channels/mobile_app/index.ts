import { CHANNEL_TYPE_FIELDS, MESSAGE_TEXT_MAX } from '@smartconnect/contracts';
import type { ChannelAdapter, ChannelCapabilities } from '../types.ts';
import { connectMobileApp } from './connect.ts';
import { sendMobileApp } from './send.ts';

const fields = CHANNEL_TYPE_FIELDS.mobile_app;

/**
 * What a mobile app channel can do today: text to an app user's devices as push notifications (files are named in
 * the notification; the SDK will show them). No edits, buttons or templates; we may write first to a known app user.
 */
export const MOBILE_APP_CAPABILITIES: ChannelCapabilities = {
  startDialog: true,
  edit: false,
  buttons: false,
  templates: false,
  sessionWindowHours: null,
  textLimit: MESSAGE_TEXT_MAX,
  attachments: { kinds: ['image', 'document'], maxBytes: 20 * 1024 * 1024 },
};

const PRESENTED = [
  'fcmProjectId',
  'fcmClientEmail',
  'apnsKeyId',
  'apnsTeamId',
  'apnsBundleId',
  'apnsEnvironment',
  'identitySecretEnd',
] as const;

/**
 * The `mobile_app` channel (§3, issue 34): a customer's app with our SDK. Operators' replies go to the app user's
 * devices as push notifications through the app's own FCM project and APNs key (lib/push). There is no provider
 * webhook: the app talks to us through the SDK's API (a later part), so the common webhook route is refused.
 */
export const mobileAppAdapter: ChannelAdapter = {
  type: 'mobile_app',
  createSchema: fields.omit({ rotateIdentitySecret: true }),
  updateSchema: fields.partial(),
  capabilities: MOBILE_APP_CAPABILITIES,
  connect: connectMobileApp,
  disconnect: async () => undefined,
  verify: () => false,
  parse: () => [],
  send: sendMobileApp,
  present: (settings) => ({
    ...Object.fromEntries(PRESENTED.map((k) => [k, settings[k] ?? null])),
    fcm: typeof settings.fcmProjectId === 'string',
    apns: typeof settings.apnsKeyId === 'string',
  }),
};

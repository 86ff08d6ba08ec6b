import webpush from 'web-push';
import type { AppContext } from '../../context.ts';
import { stateSlot } from '../../context.ts';
import { decryptSecret, encryptSecret } from '../../lib/crypto.ts';
import * as Q from './queries.ts';

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/** This process's key pair, read once (the environment's, or the one stored in the database). */
const KEYS = stateSlot<{ keys: Promise<VapidKeys> | null }>('push.vapid', () => ({ keys: null }));

/**
 * Who sends the pushes, for the push services (the JWT's `sub`): VAPID_SUBJECT, else the public address when it is
 * an https one, else a mailto: of MAIL_FROM's address.
 */
function subject(app: AppContext): string {
  const given = app.config.env.VAPID_SUBJECT?.trim();
  if (given) return given;
  const url = app.config.publicUrl;
  if (url.startsWith('https://') && !new URL(url).hostname.endsWith('localhost')) return url;
  const address = /<([^>]+)>/.exec(app.config.mailFrom)?.[1] ?? app.config.mailFrom;
  return `mailto:${address.trim() || 'no-reply@smartconnect.local'}`;
}

async function load(app: AppContext): Promise<VapidKeys> {
  const env = app.config.env;
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY)
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: subject(app) };
  let row = await Q.vapidKeys(app.db);
  if (!row) {
    // Made once for the installation: every instance of a cluster reads the same pair (the first one stored).
    const made = webpush.generateVAPIDKeys();
    await Q.insertVapidKeys(app.db, made.publicKey, encryptSecret(app.config.secretKey, made.privateKey));
    row = await Q.vapidKeys(app.db);
    if (!row) throw new Error('push: the VAPID keys were not stored');
  }
  return {
    publicKey: row.public_key,
    privateKey: decryptSecret(app.config.secretKey, row.private_key),
    subject: subject(app),
  };
}

/** The installation's VAPID keys: VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, or a pair made once and kept in the database. */
export function vapidKeys(app: AppContext): Promise<VapidKeys> {
  const slot = app.state.of(app, KEYS);
  slot.keys ??= load(app).catch((err) => {
    slot.keys = null;
    throw err;
  });
  return slot.keys;
}

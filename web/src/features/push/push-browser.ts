/** Why this browser could not be subscribed, in the page's words (push.<reason>). */
export class PushBrowserError extends Error {
  constructor(readonly reason: 'unsupported' | 'denied' | 'subscribeFailed') {
    super(reason);
    this.name = 'PushBrowserError';
  }
}

/** Push needs a service worker (the installed app's, registered by app/service-worker.tsx) and the Push API. */
export const pushSupported = (): boolean =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  typeof Notification !== 'undefined';

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!pushSupported()) return undefined;
  return navigator.serviceWorker.getRegistration('/');
}

/** The browser's current subscription, when the worker is registered and subscribed. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  try {
    return (await (await registration())?.pushManager.getSubscription()) ?? null;
  } catch {
    return null;
  }
}

/** The VAPID key (base64url) as the bytes pushManager.subscribe wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Asks for the permission (a click led here), then subscribes the browser with the server's key; a subscription
 * made with another key (the installation's keys changed) is replaced.
 */
export async function subscribeBrowser(publicKey: string): Promise<PushSubscriptionJSON> {
  const reg = await registration();
  if (!reg) throw new PushBrowserError('unsupported');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushBrowserError('denied');
  const key = keyBytes(publicKey);
  try {
    const old = await reg.pushManager.getSubscription();
    const oldKey = old?.options.applicationServerKey;
    const same =
      oldKey &&
      new Uint8Array(oldKey).length === key.length &&
      new Uint8Array(oldKey).every((b, i) => b === key[i]);
    if (old && !same) await old.unsubscribe();
    const sub =
      same && old
        ? old
        : await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    return sub.toJSON();
  } catch {
    throw new PushBrowserError('subscribeFailed');
  }
}

/** Ends this browser's subscription at the push service (the server forgets it separately). */
export async function unsubscribeBrowser(): Promise<void> {
  await (await currentSubscription())?.unsubscribe().catch(() => false);
}

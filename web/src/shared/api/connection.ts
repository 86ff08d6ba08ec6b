type Listener = (lost: boolean) => void;
const listeners = new Set<Listener>();
let lost = false;

/** A fetch failed at the network level: the app shows 'No connection to the server.' with a refresh button. */
export function reportConnectionLost(): void {
  if (lost) return;
  lost = true;
  for (const l of listeners) l(true);
}

export function onConnectionChange(listener: Listener): () => void {
  listeners.add(listener);
  listener(lost);
  return () => listeners.delete(listener);
}

export const isConnectionLost = (): boolean => lost;

/** A later call got through: the notice goes away by itself. */
export function reportConnectionRestored(): void {
  if (!lost) return;
  lost = false;
  for (const l of listeners) l(false);
}

/**
 * The browser says it is back online: one cheap call to /api/health confirms the server answers before
 * the notice goes away (being online says nothing about the server itself).
 */
export async function probeConnection(fetchFn: typeof fetch = fetch): Promise<boolean> {
  try {
    const res = await fetchFn('/api/health', { cache: 'no-store' });
    if (!res.ok) return false;
    reportConnectionRestored();
    return true;
  } catch {
    return false;
  }
}

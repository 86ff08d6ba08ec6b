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

/** A later call got through: the notice goes away by itself. */
export function reportConnectionRestored(): void {
  if (!lost) return;
  lost = false;
  for (const l of listeners) l(false);
}

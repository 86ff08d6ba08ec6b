/**
 * The one hook of web telemetry in the app (main.tsx): after the page has loaded and painted, asks the server
 * whether and where to send (GET /api/telemetry/config; TELEMETRY=off answers disabled) and only then loads the
 * sender in its own chunk: Faro for a signed-in user (a session token is stored), the light public-telemetry
 * (web-vitals and our transport, ~4 KB instead of Faro's ~41 KB) on the public pages, which starts Faro itself
 * once the user signs in. Nothing of either is in the initial bundle; failures are only logged.
 */
export function startTelemetry(): void {
  const idle = () => {
    const later = (window as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => void })
      .requestIdleCallback;
    if (later) later(() => void load(), { timeout: 2000 });
    else setTimeout(() => void load(), 1);
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

async function load(): Promise<void> {
  try {
    const res = await fetch('/api/telemetry/config', { headers: { accept: 'application/json' } });
    if (!res.ok) return;
    const config = (await res.json()) as { enabled: boolean; url: string; apiKey: string | null };
    if (!config.enabled) return;
    if (localStorage.getItem('token')) (await import('./faro.ts')).initTelemetry(config);
    else (await import('./public-telemetry.ts')).startPublicTelemetry(config);
  } catch (err) {
    console.warn('Telemetry not started', err);
  }
}

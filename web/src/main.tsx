import './app/public-styles.ts';
import './app/global.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { registerServiceWorker } from './app/service-worker.tsx';
import { loadLocale, storedLanguage } from './shared/i18n/index.ts';
import { startTelemetry } from './shared/telemetry/start.ts';

// The public pages' texts of the stored language first (i18n/parts.ts), then the first render.
void loadLocale(storedLanguage(), 'public').then(() => {
  createRoot(document.getElementById('app')!).render(<App />);
  registerServiceWorker();
  startTelemetry();
});

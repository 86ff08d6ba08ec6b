import './shared/zod-csp.ts';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dropzone/styles.css';
import './app/global.css';
import './shared/i18n/index.ts';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { registerServiceWorker } from './app/service-worker.tsx';
import { startTelemetry } from './shared/telemetry/start.ts';

createRoot(document.getElementById('app')!).render(<App />);
registerServiceWorker();
startTelemetry();

import { LIMITS } from '@smartconnect/contracts/constants';

export const APP_NAME = 'SmartConnect';
export const DEFAULT_ICON = '/favicon.svg';
export const ALERT_ICON = '/favicon-alert.svg';
/** Error and status screens (not found, no rights...): a grey icon with an exclamation mark. */
export const ERROR_ICON = '/favicon-error.svg';

type Doc = Pick<Document, 'title' | 'querySelector'>;

function setIcon(doc: Doc, href: string): void {
  const link = doc.querySelector<HTMLLinkElement>('link#favicon');
  if (link && link.getAttribute('href') !== href) link.setAttribute('href', href);
}

let base = { title: APP_NAME, icon: DEFAULT_ICON };
let blinking: (() => void) | null = null;

/** Sets the page title and favicon of the current route (§2.1); the title defaults to the platform name. */
export function setPageTitle(title?: string, icon: string = DEFAULT_ICON, doc: Doc = document): void {
  base = { title: title ? `${title} · ${APP_NAME}` : APP_NAME, icon };
  if (blinking) return;
  doc.title = base.title;
  setIcon(doc, icon);
}

/**
 * Alternates the title and favicon with a notification title and icon every 1000 ms (§9) until the
 * returned function is called, which restores the route's own title and icon.
 */
export function blinkTitle(
  notification: string,
  icon: string = ALERT_ICON,
  doc: Doc = document,
  timers: Pick<typeof globalThis, 'setInterval' | 'clearInterval'> = globalThis,
): () => void {
  blinking?.();
  let alt = true;
  const show = () => {
    doc.title = alt ? notification : base.title;
    setIcon(doc, alt ? icon : base.icon);
    alt = !alt;
  };
  show();
  const timer = timers.setInterval(show, LIMITS.titleBlinkMs);
  const stop = () => {
    timers.clearInterval(timer);
    if (blinking === stop) blinking = null;
    doc.title = base.title;
    setIcon(doc, base.icon);
  };
  blinking = stop;
  return stop;
}

// Browser-test harness: starts the real server as a child process on a free port with its own data
// directory, reads its stdout (seeded passwords, recovery mails) and drives Debian's Chromium.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';

export const ROOT = new URL('..', import.meta.url).pathname;
export const SCREENSHOTS = join(ROOT, 'e2e/screenshots');
export const ADMIN_PASSWORD = 'Admin#Pass1';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export type TestServer = {
  url: string;
  passwords: Record<string, string>;
  log: string[];
  /** Waits for a line of the server log matching the pattern and returns its first group. */
  waitForLog(pattern: RegExp, after?: number, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
};

/**
 * `node --import tsx server/src/main.ts` with a temp DATA_DIR on embedded PGlite, LOG_LEVEL=info; `env` adds
 * variables (a provider fake's base URL, e.g. TELEGRAM_API_BASE_URL).
 */
export async function startServer(options: { env?: Record<string, string> } = {}): Promise<TestServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'sc-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'info',
    SEED_DEMO: 'true',
    // The channel webhooks of the tests listen on this machine.
    OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
    NODE_ENV: 'production',
    ...options.env,
  };
  // The browser tests always run on their own embedded database, never on a shared server.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.SMTP_URL;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    log.push(...lines);
    for (const w of waiters) w();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  let exited = false;
  child.once('exit', () => {
    exited = true;
    for (const w of waiters) w();
  });

  const waitForLog = (pattern: RegExp, after = 0, timeoutMs = 60_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        for (const line of log.slice(after)) {
          const m = line.match(pattern);
          if (m) {
            waiters.delete(check);
            clearTimeout(timer);
            return resolve(m[1] ?? m[0]);
          }
        }
        if (exited) {
          waiters.delete(check);
          clearTimeout(timer);
          reject(new Error(`server exited:\n${log.slice(-30).join('\n')}`));
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timeout waiting for ${pattern}\n${log.slice(-30).join('\n')}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  await waitForLog(/SmartConnect is serving/);
  const passwords: Record<string, string> = {};
  for (const line of log) {
    const m = line.match(/^\s+[A-Z_]+\s+(\S+@\S+)\s+(\S+)\s*$/);
    if (m) passwords[m[1]] = m[2];
  }
  return {
    url,
    passwords,
    log,
    waitForLog,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // See serveWithCsp: pages served through a route would otherwise lose their websocket.
      '--disable-features=LocalNetworkAccessChecks',
    ],
  });
}

/**
 * The Content-Security-Policy the server sends (issue point 4): no inline script, Mantine's injected
 * styles allowed. Pages are served with it whenever the server's answer carries none, so every spec runs
 * the app under it and a violation fails the spec like any console error.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self' ws: wss:",
  "font-src 'self' data:",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
].join('; ');

/** A console error or a CSP violation the app is never allowed to cause (no spec may filter it out). */
export const CSP_VIOLATION = /Content Security Policy|CSP violation/i;

/**
 * A fresh context (own localStorage) with a page that records console errors, uncaught exceptions and
 * Content-Security-Policy violations (from the console and from `securitypolicyviolation` events).
 */
export async function openPage(
  browser: Browser,
  baseURL: string,
  options: { width?: number; height?: number } = {},
) {
  const context: BrowserContext = await browser.newContext({
    baseURL,
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    serviceWorkers: 'block',
  });
  const errors: string[] = [];
  await context.exposeBinding('__scCspViolation', (_source, text: string) => errors.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __scCspViolation?: (t: string) => void }).__scCspViolation;
      report?.(
        `CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
      );
    });
  });
  await serveWithCsp(context);
  const page = await context.newPage();
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // The browser's own note about an HTTP 4xx answer the app expects (wrong password, missing chats API).
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) return;
    errors.push(msg.text());
  });
  return { context, page, errors };
}

/**
 * Documents (paths without a file extension, outside /api) get the CSP header when the server's answer
 * has none. A fulfilled answer has no network address, so Chromium would take the page for a public one
 * and refuse its websocket to 127.0.0.1: `launchBrowser` turns those local-network checks off.
 */
async function serveWithCsp(context: BrowserContext): Promise<void> {
  await context.route(
    (url) => !url.pathname.startsWith('/api/') && !/\.[a-z0-9]+$/i.test(url.pathname),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const response = await route.fetch();
      const headers = response.headers();
      if (!headers['content-security-policy']) headers['content-security-policy'] = CSP;
      await route.fulfill({ response, headers });
    },
  );
}

/**
 * No console error, page error or CSP violation happened; `allow` lets a spec accept errors it provokes
 * on purpose (a 500 it stubs), but never a CSP violation.
 */
export function assertNoErrors(errors: string[], allow?: RegExp): void {
  const left = errors.filter((e) => CSP_VIOLATION.test(e) || !allow?.test(e));
  if (left.length) throw new Error(`console errors:\n${left.join('\n')}`);
}

/**
 * A screenshot of the whole page. Playwright's `fullPage` scrolls and stitches, which paints the fixed
 * header (and cuts the fixed menu) mid-page; instead the viewport is made as tall as the page for one
 * plain capture, then restored.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { toasts?: boolean } = {},
): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Toasts of earlier steps would cover the header: left out on request, for this capture only.
  const hide =
    options.toasts === false
      ? await page.addStyleTag({ content: '.mantine-Notifications-root { visibility: hidden !important; }' })
      : null;
  await page.waitForLoadState('networkidle').catch(() => {});
  const viewport = page.viewportSize() ?? { width: 1440, height: 900 };
  const height = await page.evaluate(() =>
    Math.max(document.documentElement.scrollHeight, document.body.scrollHeight),
  );
  const tall = Math.min(height, 4000) > viewport.height;
  if (tall) await page.setViewportSize({ width: viewport.width, height: Math.min(height, 4000) });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: 'disabled' });
  if (tall) await page.setViewportSize(viewport);
  await hide?.evaluate((el) => (el as Element).remove());
}

// biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes
type Json = { code: string; entity: any; error: { code: string; fields?: Record<string, string> } | null };

/** A direct API call (test setup and checks that the server itself refuses). */
export async function apiCall(base: string, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

export async function apiLogin(base: string, email: string, password: string): Promise<string> {
  const r = await apiCall(base, 'POST', '/api/auth/login', { email, password });
  if (!r.body.entity?.token) throw new Error(`login failed for ${email}: ${JSON.stringify(r.body)}`);
  return r.body.entity.token;
}

/** Opens the app already signed in with a token (the UI login itself is tested in auth.spec.ts). */
export async function signIn(page: Page, token: string, path = '/admin'): Promise<void> {
  await page.goto('/not-found');
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  await page.goto(path);
}

/** RFC 6238 TOTP (SHA-1, 30 s, 6 digits) from a base32 secret, as authenticator apps compute it. */
export function totp(secret: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secret.replace(/=+$/, '').toUpperCase())
    bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const h = createHmac('sha1', key).update(counter).digest();
  const o = h[h.length - 1] & 0xf;
  const n = ((h.readUInt32BE(o) & 0x7fffffff) % 1_000_000).toString();
  return n.padStart(6, '0');
}

/** An input by its label; required fields carry an asterisk in their accessible name. */
export function field(page: Page | Locator, label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.getByLabel(new RegExp(`^${escaped}( \\*)?$`)).first();
}

/**
 * Waits until the field named `label` shows `message` as its own error: the input is marked invalid and
 * the message is one of the elements its aria-describedby points to (not just somewhere on the page).
 */
export async function fieldError(
  page: Page | Locator,
  label: string,
  message: string,
  timeoutMs = 5000,
): Promise<void> {
  const input = field(page, label);
  const end = Date.now() + timeoutMs;
  let described: string[] = [];
  while (Date.now() < end) {
    // Mantine marks its inputs aria-invalid, the inner input of PasswordInput data-invalid.
    described = await input.evaluate((el) =>
      el.getAttribute('aria-invalid') === 'true' || el.hasAttribute('data-invalid')
        ? (el.getAttribute('aria-describedby') ?? '')
            .split(/\s+/)
            .filter(Boolean)
            .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
        : [],
    );
    if (described.includes(message)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`"${label}": expected its error "${message}", it describes ${JSON.stringify(described)}`);
}

/**
 * Waits until the focused element's text is `text` (focus may move in a queued event, such as a dialog's close),
 * and fails naming what has the focus instead.
 */
export async function focusOn(page: Page, text: string, timeoutMs = 5000): Promise<void> {
  const focused = () => page.evaluate(() => document.activeElement?.textContent ?? null);
  const end = Date.now() + timeoutMs;
  while ((await focused()) !== text && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  assert.equal(await focused(), text, 'the focused element');
}

/** The route's title is set after its lazy screen renders: wait for it, then return it. */
export async function titleOf(page: Page, expected: string): Promise<string> {
  await page.waitForFunction((t) => document.title === t, expected, { timeout: 5000 }).catch(() => {});
  return page.title();
}

/** A small JPEG drawn by the browser itself (base64), for the avatar tests. */
export async function makeJpeg(page: Page): Promise<string> {
  return page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = c.height = 96;
    const g = c.getContext('2d')!;
    g.fillStyle = '#4263eb';
    g.fillRect(0, 0, 96, 96);
    g.fillStyle = '#fff';
    g.fillRect(30, 30, 36, 36);
    return c.toDataURL('image/jpeg', 0.9).split(',')[1];
  });
}

/** A real drag-and-drop of one file: dragenter, dragover and drop events carrying a DataTransfer. */
export async function dropFile(
  page: Page,
  target: Locator,
  file: { name: string; mimeType: string; base64: string },
): Promise<void> {
  const dataTransfer = await page.evaluateHandle(({ name, mimeType, base64 }) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], name, { type: mimeType }));
    return dt;
  }, file);
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer });
}

/** One axe-core finding: the rule, its impact, and where (a few selectors). */
export type A11yViolation = { id: string; impact: string; help: string; targets: string[] };

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The page's accessibility problems of `serious` or `critical` impact (axe-core, WCAG 2.1 A/AA rules and best
 * practices), as a screen reader or keyboard user would meet them. axe is evaluated through the DevTools protocol,
 * which the page's CSP does not govern.
 */
export async function seriousA11y(page: Page): Promise<A11yViolation[]> {
  // A modal or drawer still fading in is half transparent: axe would measure the contrast of a frame of the
  // animation. Wait (at most 2 s) for the page's running animations and transitions to end.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
      new Promise((r) => setTimeout(r, 2000)),
    ]),
  );
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    })) as {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: string[]; html: string }[];
      }[];
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'minor',
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`),
    }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Fails with every serious or critical axe finding of the page, named with `where` (the screen). */
export async function assertAccessible(page: Page, where: string): Promise<void> {
  const found = await seriousA11y(page);
  if (found.length)
    throw new Error(
      `${where}: ${found.length} serious/critical accessibility violation(s):\n${found
        .map((v) => `  ${v.impact} ${v.id}: ${v.help}\n    ${v.targets.join('\n    ')}`)
        .join('\n')}`,
    );
}

/** Polls `fn` every 100 ms until it returns a value (not undefined), for what arrives outside the page (a fake
 * provider's request, a mail in an SMTP sink); fails after `timeoutMs`. */
export async function waitFor<T>(fn: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const v = fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
}

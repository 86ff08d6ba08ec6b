// What the public pages download (issue 12, "split by route"): the login page in each language, loaded in
// Chromium, every JS and CSS file of the web app it fetched, gzipped (level 9) from web/dist as the server sends
// them; the sum must stay within the budget, and none of the admin shell's or chat center's chunks may be among
// them. The build manifest's static view (scripts/page-weight.mjs) must agree with what the browser fetched.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiLogin,
  assertNoErrors,
  field,
  launchBrowser,
  openPage,
  ROOT,
  signIn,
  startServer,
  type TestServer,
  titleOf,
} from './harness.ts';

/**
 * The budget in KB (gzip) for the login page's JS and CSS until the network is idle, the light web telemetry
 * (fetched after the page's `load` event) and the service worker's helper included: the issue's target, 150 KB, met.
 * It was 250 KB (English; Russian 255 KB), then 175.2 KB (Russian 176.6 KB): the public pages' telemetry without
 * Faro, only the public part of the texts (i18n/parts.ts), the declarative router, no react-query, no Trans. Now
 * 147.6 KB (Russian 149.2 KB): our own t() instead of i18next (i18n/translator.ts), the admin route table out of the
 * entry (admin-routes.tsx), the login form without the form library (light-form.ts), terser. What is left is the
 * framework: react-dom ~63 KB, the UI library ~20 KB and its styles 10 KB, the router ~13 KB. Lower it as the
 * weight falls.
 */
const LOGIN_BUDGET_KB = 150;
/** The support widget's script (widget/dist, 9.0 KB), which the login page loads besides the app's files. */
const WIDGET_BUDGET_KB = 10;
/** Chunks of the signed-in app that a public page must never download. */
const ADMIN_ONLY =
  /\/assets\/(admin-routes|admin-layout|chats-page|admin-styles|session|realtime|section-tabs|guards)[-.]/;

const dist = join(ROOT, 'web/dist');
const gzipKb = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;

let server: TestServer;
let browser: Browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('public pages are split from the admin shell', () => {
  for (const [lang, email] of [
    ['eng', 'Email'],
    ['rus', 'Электронная почта'],
  ] as const) {
    test(`the login page (${lang}) downloads at most ${LOGIN_BUDGET_KB} KB gzipped of the app's JS and CSS`, async () => {
      const { context, page, errors } = await openPage(browser, server.url);
      await context.addInitScript((l) => localStorage.setItem('sc-lang', l), lang);
      const fetched = new Set<string>();
      page.on('response', (r) => {
        const url = new URL(r.url());
        if (url.origin === server.url && /\.(js|css)$/.test(url.pathname)) fetched.add(url.pathname);
      });
      await page.goto('/');
      await field(page, email).waitFor();
      await page.waitForLoadState('networkidle');
      const files = [...fetched].sort();
      const admin = files.filter((f) => ADMIN_ONLY.test(f));
      assert.deepEqual(admin, [], `the login page fetched the admin shell's chunks: ${admin.join(', ')}`);
      const web = files.filter((f) => f.startsWith('/assets/'));
      const total = web.reduce((n, f) => n + gzipKb(f.slice(1)), 0);
      const others = files.filter((f) => !f.startsWith('/assets/'));
      const othersKb = others.reduce((n, f) => n + gzipKb(`../../widget/dist/${f.split('/').pop()}`), 0);
      console.log(
        `login (${lang}): ${web.length} files, ${total.toFixed(1)} KB gzipped` +
          (others.length ? `; besides the app: ${others.join(', ')} ${othersKb.toFixed(1)} KB` : ''),
      );
      assert.ok(total > 50, `implausibly small: ${total.toFixed(1)} KB (${web.join(', ')})`);
      assert.ok(
        total <= LOGIN_BUDGET_KB,
        `the login page downloads ${total.toFixed(1)} KB gzipped of the app (budget ${LOGIN_BUDGET_KB} KB)`,
      );
      assert.ok(
        othersKb <= WIDGET_BUDGET_KB,
        `the support widget's script is ${othersKb.toFixed(1)} KB (budget ${WIDGET_BUDGET_KB} KB)`,
      );

      // The manifest's view of the same page (entry, route chunk, their static imports, the language's texts).
      const { pageWeight } = (await import(join(ROOT, 'scripts/page-weight.mjs'))) as {
        pageWeight: (m: string[]) => { sizes: { file: string }[]; total: number };
      };
      // The language's public texts (i18n/parts.ts); the admin part must not come.
      const locale = `src/shared/i18n/${lang === 'eng' ? 'en-gb' : 'ru-ru'}.ts?part=public`;
      // Web telemetry (issue 20) is imported after the page's load event: on the public pages the light sender
      // (a chunk named 'public-telemetry', web-vitals and our transport), never Faro. Counted too.
      const chunks = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<
        string,
        { name?: string }
      >;
      const telemetry = Object.keys(chunks).filter((k) => chunks[k].name === 'public-telemetry');
      assert.equal(telemetry.length, 1, 'the telemetry chunk is in the manifest');
      const notHere = Object.keys(chunks)
        .filter((k) => chunks[k].name === 'faro' || k.endsWith('?part=admin'))
        .map((k) => `/${(chunks[k] as { file: string }).file}`);
      assert.deepEqual(
        web.filter((f) => notHere.includes(f)),
        [],
        'neither Faro nor the admin texts on the login page',
      );
      const manifest = pageWeight(['src/features/support/login-with-support.tsx', locale, ...telemetry]);
      // The service worker's registration helper loads after the first render (app/service-worker.tsx).
      const missing = web.filter(
        (f) => !manifest.sizes.some((s) => `/${s.file}` === f) && !f.includes('/workbox-window.'),
      );
      assert.deepEqual(missing, [], 'the browser fetched what the manifest does not count');
      assert.ok(
        manifest.total / 1024 <= LOGIN_BUDGET_KB,
        `manifest: ${(manifest.total / 1024).toFixed(1)} KB`,
      );
      assertNoErrors(errors);
      await context.close();
    });
  }

  test('a signed-in page opened directly gets the rest of the texts (the admin part) and names itself', async () => {
    const token = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
    const { context, page, errors } = await openPage(browser, server.url);
    const fetched: string[] = [];
    page.on('response', (r) => fetched.push(new URL(r.url()).pathname));
    await signIn(page, token, '/admin/chats?filter=assigned');
    assert.equal(await titleOf(page, 'Chat center · SmartConnect'), 'Chat center · SmartConnect');
    await page.getByText('No conversations in progress').waitFor();
    const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >;
    assert.ok(
      fetched.includes(`/${manifest['src/shared/i18n/en-gb.ts?part=admin'].file}`),
      fetched.join(', '),
    );
    assertNoErrors(errors);
    await context.close();
  });
});

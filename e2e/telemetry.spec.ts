// Web telemetry (issue 20): the app loads Faro after the first paint and its web vitals reach the server's own
// collector; platform staff read them per page on Preferences -> Web vitals; TELEMETRY=off sends nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Request } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  assertAccessible,
  assertNoErrors,
  field,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  startServer,
  type TestServer,
} from './harness.ts';

type Body = {
  meta?: { app?: { name?: string; version?: string; environment?: string }; session?: { id?: string } };
  measurements?: { type: string; values: Record<string, number> }[];
};

const vitalsOf = (requests: Request[]) =>
  new Set(
    requests
      .flatMap((r) => (r.postDataJSON() as Body).measurements ?? [])
      .filter((m) => m.type === 'web-vitals')
      .flatMap((m) => Object.keys(m.values).filter((k) => k !== 'delta')),
  );

/** Hides the page as a tab switch does: web-vitals then reports LCP and CLS. */
const hidePage = () => {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
  window.dispatchEvent(new Event('pagehide'));
};

describe('web telemetry', () => {
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

  test('the login page loads its light telemetry lazily and its web vitals arrive at the collector', async () => {
    // Faro is not in what the login page loads first: no initial script or preload names it.
    const html = await (await fetch(`${server.url}/`)).text();
    const initial = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    assert.ok(initial.length > 0);
    for (const src of initial) {
      const js = await (await fetch(server.url + src)).text();
      assert.equal(js.includes('faro-web-sdk'), false, `${src} carries Faro`);
    }

    const { page, errors, context } = await openPage(browser, server.url);
    const sent: Request[] = [];
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/telemetry') sent.push(r);
      if (r.resourceType() === 'script') chunks.push(new URL(r.url()).pathname);
    });
    const accepted: number[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/api/telemetry') accepted.push(r.status());
    });
    await page.goto('/');
    await page
      .getByRole('button', { name: /log in|sign in|войти/i })
      .first()
      .waitFor();
    const deadline = Date.now() + 15_000;
    while (!(vitalsOf(sent).has('fcp') && vitalsOf(sent).has('ttfb'))) {
      assert.ok(Date.now() < deadline, `vitals sent: ${[...vitalsOf(sent)].join(', ')}`);
      await page.waitForTimeout(100);
    }
    // A first input ends LCP's observation (web-vitals reports it then, or when the page is hidden).
    await page.mouse.click(5, 5);
    await page.keyboard.press('Shift');
    await page.evaluate(hidePage);
    while (!vitalsOf(sent).has('lcp')) {
      assert.ok(Date.now() < deadline + 10_000, `vitals sent: ${[...vitalsOf(sent)].join(', ')}`);
      await page.waitForTimeout(100);
    }
    while (accepted.length === 0) {
      assert.ok(Date.now() < deadline + 15_000, 'no answer from the collector');
      await page.waitForTimeout(100);
    }
    const first = sent[0];
    const body = first.postDataJSON() as Body;
    assert.deepEqual(body.meta?.app, { name: 'SmartConnect', version: '1.0.0', environment: 'production' });
    const headers = await first.allHeaders();
    assert.equal(headers['x-faro-session-id'], body.meta?.session?.id);
    assert.ok(accepted.length > 0 && accepted.every((s) => s === 202), `answers: ${accepted.join(', ')}`);
    // The public pages' light telemetry (web-vitals and our transport) came in its own chunk, after the page;
    // neither Faro nor web tracing (the signed-in app's) came at all.
    assert.ok(
      chunks.some((c) => /\/assets\/public-telemetry-[\w-]+\.js$/.test(c)),
      chunks.join(', '),
    );
    assert.equal(
      chunks.some((c) => /\/assets\/(tracing|faro)-/.test(c)),
      false,
      chunks.join(', '),
    );
    // Page URLs leave without their query or fragment.
    for (const r of sent) assert.equal(r.postData()?.includes('secret-value'), false, r.postData() ?? '');
    assertNoErrors(errors);
    await context.close();

    // Stored: platform staff see the login page's vitals of the last 24 hours.
    const staff = await apiLogin(
      server.url,
      'staff@smartconnect.local',
      server.passwords['staff@smartconnect.local'],
    );
    const summary = await apiCall(server.url, 'GET', '/api/telemetry/vitals', undefined, staff);
    assert.equal(summary.status, 200);
    const login = summary.body.entity.pages.find((p: { page: string }) => p.page === '/');
    assert.ok(login, JSON.stringify(summary.body.entity));
    const names = login.day.map((v: { name: string }) => v.name);
    for (const n of ['FCP', 'LCP', 'TTFB']) assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
  });

  test('a sign-in on the login page starts Faro in the session of the light telemetry', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    const sent: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/telemetry') sent.push(r);
    });
    await page.goto('/');
    await field(page, 'Email').waitFor();
    await page.waitForLoadState('load');
    while (sent.length === 0) await page.waitForTimeout(100);
    const session = (sent[0].postDataJSON() as Body).meta?.session?.id;
    assert.ok(session);
    await field(page, 'Email').fill('admin@demo.local');
    await field(page, 'Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL('**/admin/chats?filter=assigned');
    await page.waitForFunction(() => 'faro' in window, undefined, { timeout: 15_000 });
    const faroSession = await page.evaluate(
      () =>
        (window as unknown as { faro: { api: { getSession(): { id?: string } } } }).faro.api.getSession().id,
    );
    assert.equal(faroSession, session);
    assertNoErrors(errors);
    await context.close();
  });

  test('platform staff read the web vitals page: p75 per page with rating colours, both widths', async () => {
    const staff = await apiLogin(
      server.url,
      'staff@smartconnect.local',
      server.passwords['staff@smartconnect.local'],
    );
    for (const width of [1440, 390]) {
      const { page, errors, context } = await openPage(browser, server.url, { width });
      await signIn(page, staff, '/admin/preferences/web-vitals');
      const table = page.getByTestId('vitals-table');
      await table.waitFor();
      await page.getByRole('cell', { name: '/', exact: true }).waitFor();
      const badge = table.locator('.mantine-Badge-root').first();
      assert.match(
        (await badge.getAttribute('aria-label')) ?? '',
        /^(FCP|LCP|CLS|INP|FID|TTFB) .+: (good|needs improvement|poor)$/,
      );
      await page.getByText('Last 7 days').click();
      assert.equal(await page.getByRole('radio', { name: 'Last 7 days' }).isChecked(), true);
      await table.waitFor();
      if (width === 1440) {
        // Once Faro runs, the app's API calls carry a traceparent (the server continues the trace) and their
        // spans reach the collector, their URLs without the query.
        const collected: Request[] = [];
        page.on('request', (r) => {
          if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/telemetry') collected.push(r);
        });
        await page.waitForFunction(() => 'faro' in window, undefined, { timeout: 15_000 });
        const [call] = await Promise.all([
          page.waitForRequest((r) => new URL(r.url()).pathname === '/api/ready'),
          page.evaluate(() => fetch('/api/ready?probe=secret-query')),
        ]);
        assert.match((await call.allHeaders()).traceparent ?? '', /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
        const deadline = Date.now() + 10_000;
        while (!collected.some((r) => (r.postData() ?? '').includes('"resourceSpans"'))) {
          assert.ok(Date.now() < deadline, 'spans reach the collector');
          await page.waitForTimeout(100);
        }
        const traces = collected.map((r) => r.postData() ?? '').filter((b) => b.includes('resourceSpans'));
        assert.ok(traces.some((b) => b.includes('/api/ready')));
        assert.equal(
          traces.some((b) => b.includes('secret-query')),
          false,
        );
      }
      await assertAccessible(page, `web vitals at ${width}px`);
      await screenshot(page, `telemetry-vitals-${width}`);
      assertNoErrors(errors);
      await context.close();
    }
  });
});

describe('TELEMETRY=off', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startServer({ env: { TELEMETRY: 'off' } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('the app sends nothing and loads no telemetry code', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    const seen: string[] = [];
    page.on('request', (r) => seen.push(new URL(r.url()).pathname));
    await page.goto('/');
    await page.waitForLoadState('load');
    await page.waitForTimeout(3000);
    await page.evaluate(hidePage);
    await page.waitForTimeout(500);
    assert.ok(seen.includes('/api/telemetry/config'), 'the app asked');
    assert.equal(seen.includes('/api/telemetry'), false, 'and sent nothing');
    assertNoErrors(errors);
    await context.close();
  });
});

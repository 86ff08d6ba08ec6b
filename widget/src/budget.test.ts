import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
// @ts-expect-error build.mjs is plain JavaScript
import { options } from '../build.mjs';

/** Everything a host page downloads before the visitor can type is /widget.js: at most 25 KB gzipped. */
test('the widget bundle is at most 25 KB gzipped', async () => {
  const out = await build({ ...options, write: false });
  const js = (out.outputFiles ?? [])[0].contents;
  const gz = gzipSync(js, { level: 9 }).length;
  console.log(`widget.js: ${js.length} bytes, ${gz} bytes gzipped`);
  assert.ok(gz <= 25 * 1024, `widget.js is ${gz} bytes gzipped (budget 25600)`);
  assert.ok(gz > 2000, 'the measured bundle is the real widget');
  const text = Buffer.from(js).toString('utf8');
  assert.ok(!/innerHTML|insertAdjacentHTML|outerHTML/.test(text), 'text is never rendered as HTML');
  assert.ok(!/from\s*["']zod["']|ZodError/.test(text), 'no validation library in the bundle');
});

// Builds widget/dist/widget.js: one minified IIFE with no framework (the host page downloads only this).
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

/** The bundle's options, shared with the size test. */
export const options = {
  entryPoints: [join(here, 'src/index.ts')],
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
  legalComments: 'none',
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(join(here, 'dist'), { recursive: true });
  await build({ ...options, outfile: join(here, 'dist/widget.js') });
}

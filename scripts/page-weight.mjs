// What a page of the web app downloads before it can be used: the entry chunk of index.html, the route's own chunk,
// every chunk they import statically (modulepreload), and their CSS, each gzipped (level 9, as the server sends
// them). Reads web/dist/.vite/manifest.json (vite build with `manifest: true`).
//   node scripts/page-weight.mjs src/features/auth/login-page.tsx [more route modules…]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../web/dist/', import.meta.url).pathname;

/** Files (JS and CSS) a page loads: index.html's entry plus the given route modules, with their static imports. */
export function pageFiles(routeModules) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`page-weight: ${key} is not in the build manifest`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  visit('index.html');
  for (const m of routeModules) visit(m);
  return [...files];
}

/** Gzipped bytes per file and in total. */
export function pageWeight(routeModules) {
  const sizes = pageFiles(routeModules).map((file) => ({
    file,
    gzip: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length,
  }));
  return { sizes, total: sizes.reduce((n, s) => n + s.gzip, 0) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { sizes, total } = pageWeight(process.argv.slice(2));
  for (const s of sizes.sort((a, b) => b.gzip - a.gzip))
    console.log(`${(s.gzip / 1024).toFixed(1).padStart(8)} KB  ${s.file}`);
  console.log(`${(total / 1024).toFixed(1).padStart(8)} KB  total (gzip)`);
}

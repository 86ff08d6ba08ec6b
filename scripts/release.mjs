#!/usr/bin/env node
/**
 * Builds SmartConnect into a directory that `node <dir>/server/src/main.js` starts: the server and contracts compiled
 * to JavaScript (no TypeScript at run time), the web app and widget bundles, the migrations.
 *
 *   node scripts/release.mjs                      -> dist/ in the repository (what `npm start` runs; packages are
 *                                                    found in the repository's node_modules)
 *   node scripts/release.mjs --standalone [--out=DIR]  -> release/ (or DIR): the same plus the server's production
 *                                                    packages, a folder that runs anywhere with Node (`npm run release`)
 *   node scripts/release.mjs --only=bundles       -> only web/dist and widget/dist (the browser tests' build)
 *
 * Each part is rebuilt only when its sources changed since it was last built: a SHA-256 over the part's source files
 * (paths and contents) is kept beside the output, so a second start with nothing changed builds nothing.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const standalone = args.has('standalone');
const out = resolve(root, args.get('out') ?? (standalone ? 'release' : 'dist'));
const quiet = args.has('quiet');
const say = (line) => {
  if (!quiet) console.log(`[build] ${line}`);
};

const SKIP = new Set(['node_modules', 'dist', '.git']);
/** Every file under the given paths (files or folders), sorted, without node_modules or build output. */
function filesOf(paths) {
  const found = [];
  const walk = (p) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p)) if (!SKIP.has(name)) walk(join(p, name));
    } else found.push(p);
  };
  for (const p of paths) walk(resolve(root, p));
  return found.sort();
}

function hashOf(paths) {
  const h = createHash('sha256');
  for (const f of filesOf(paths)) {
    h.update(relative(root, f));
    h.update('\0');
    h.update(readFileSync(f));
    h.update('\0');
  }
  return h.digest('hex');
}

const stampOf = (file) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : '');

function run(cmd, cmdArgs, cwd = root) {
  const r = spawnSync(cmd, cmdArgs, { cwd, stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (${r.status ?? r.signal})`);
}

const COMMON = ['contracts/src', 'contracts/package.json', 'package-lock.json', 'tsconfig.base.json'];
const PARTS = {
  widget: [
    'widget/src',
    'widget/build.mjs',
    'widget/package.json',
    'widget/tsconfig.json',
    'sdk/src',
    'sdk/package.json',
    ...COMMON,
  ],
  web: [
    'web/src',
    'web/public',
    'web/scripts',
    'web/index.html',
    'web/landing.html',
    'web/package.json',
    'web/postcss.config.cjs',
    'web/tsconfig.json',
    'web/vite.config.ts',
    ...COMMON,
  ],
  server: ['server/src', 'server/package.json', 'scripts/release.mjs', ...COMMON],
};

/** The web app or the widget: built in its workspace (web/dist, widget/dist) when its sources changed. */
function bundle(name, outputDir) {
  const hash = hashOf(PARTS[name]);
  const stamp = join(root, outputDir, '.source-hash');
  if (stampOf(stamp) === hash) {
    say(`${name}: up to date`);
    return hash;
  }
  say(`${name}: building`);
  run('npm', ['run', 'build', '-w', name]);
  writeFileSync(stamp, `${hash}\n`);
  return hash;
}

/** Copies a built folder into the output when the copy there is not of the same build. */
function place(from, to, hash) {
  const stamp = join(to, '.source-hash');
  if (stampOf(stamp) === hash) return;
  rmSync(to, { recursive: true, force: true });
  mkdirSync(dirname(to), { recursive: true });
  cpSync(join(root, from), to, { recursive: true });
}

/** tsc with the base options, emitting JavaScript (relative `.ts` imports rewritten to `.js`), without type checks. */
function compile(include, rootDir, outDir) {
  const dir = join(tmpdir(), `sc-release-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const config = join(dir, `${relative(root, rootDir).replaceAll(sep, '-')}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      extends: join(root, 'tsconfig.base.json'),
      compilerOptions: {
        noEmit: false,
        noCheck: true,
        outDir,
        rootDir,
        rewriteRelativeImportExtensions: true,
        allowImportingTsExtensions: true,
        types: [],
        sourceMap: false,
        declaration: false,
      },
      include: include.map((p) => join(rootDir, p)),
      exclude: [join(rootDir, '**/*.test.ts')],
    }),
  );
  try {
    run(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', config]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function buildServer() {
  const hash = hashOf(PARTS.server);
  const stamp = join(out, 'server', '.source-hash');
  if (stampOf(stamp) === hash) {
    say('server: up to date');
    return;
  }
  say('server: compiling');
  rmSync(join(out, 'server'), { recursive: true, force: true });
  const contractsOut = join(out, 'node_modules', '@smartconnect', 'contracts');
  rmSync(contractsOut, { recursive: true, force: true });
  compile(['src'], join(root, 'server'), join(out, 'server'));
  cpSync(join(root, 'server/src/db/migrations'), join(out, 'server/src/db/migrations'), { recursive: true });
  writeFileSync(join(out, 'server', 'package.json'), `${JSON.stringify({ type: 'module' }, null, 2)}\n`);
  compile(['src'], join(root, 'contracts'), contractsOut);
  const pkg = JSON.parse(readFileSync(join(root, 'contracts/package.json'), 'utf8'));
  const js = (p) => p.replace(/\.ts$/, '.js');
  writeFileSync(
    join(contractsOut, 'package.json'),
    `${JSON.stringify(
      {
        name: pkg.name,
        version: pkg.version,
        private: true,
        type: 'module',
        main: js(pkg.main),
        exports: Object.fromEntries(Object.entries(pkg.exports).map(([k, v]) => [k, js(v)])),
        dependencies: pkg.dependencies,
        sideEffects: pkg.sideEffects?.map(js),
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(stamp, `${hash}\n`);
}

/**
 * The production packages the server and contracts need, copied to the same place under the output as they have
 * in the repository (a workspace's own version stays under that workspace's node_modules), with what they need in
 * turn; optional packages only where installed (the prebuilt binary of this platform).
 */
function copyPackages() {
  const copied = new Set();
  const queue = [];
  const want = (fromDir, names) => {
    for (const name of names) queue.push({ fromDir, name });
  };
  const manifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const locate = (fromDir, name) => {
    for (let d = fromDir; ; d = dirname(d)) {
      const candidate = join(d, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
      if (d === dirname(d)) return undefined;
    }
  };
  want(join(root, 'server'), Object.keys(manifest(join(root, 'server')).dependencies ?? {}));
  want(join(root, 'contracts'), Object.keys(manifest(join(root, 'contracts')).dependencies ?? {}));
  let bytes = 0;
  while (queue.length) {
    const { fromDir, name, optional } = queue.shift();
    if (name.startsWith('@smartconnect/')) continue;
    const at = locate(fromDir, name);
    if (!at) {
      if (optional) continue;
      throw new Error(`${name} (needed from ${relative(root, fromDir)}) is not installed: run npm install`);
    }
    if (copied.has(at)) continue;
    copied.add(at);
    const real = realpathSync(at);
    const to = join(out, relative(root, at));
    if (!to.startsWith(out + sep)) throw new Error(`${name} is outside the repository (${at})`);
    cpSync(real, to, { recursive: true, dereference: true });
    bytes += sizeOf(to);
    const m = manifest(real);
    want(at, Object.keys(m.dependencies ?? {}));
    for (const o of Object.keys(m.optionalDependencies ?? {}))
      queue.push({ fromDir: at, name: o, optional: true });
  }
  say(`packages: ${copied.size} (${(bytes / 1024 / 1024).toFixed(0)} MB)`);
}

function sizeOf(p) {
  const s = statSync(p);
  if (!s.isDirectory()) return s.size;
  let n = 0;
  for (const e of readdirSync(p)) n += sizeOf(join(p, e));
  return n;
}

const started = Date.now();
if (args.get('only') !== 'bundles') mkdirSync(out, { recursive: true });
const widgetHash = bundle('widget', 'widget/dist');
const webHash = bundle('web', 'web/dist');
if (args.get('only') === 'bundles') process.exit(0);
buildServer();
place('widget/dist', join(out, 'widget', 'dist'), widgetHash);
place('web/dist', join(out, 'web', 'dist'), webHash);
const serverModules = join(root, 'server', 'node_modules');
if (standalone) {
  rmSync(join(out, 'server', 'node_modules'), { recursive: true, force: true });
  for (const e of existsSync(join(out, 'node_modules')) ? readdirSync(join(out, 'node_modules')) : [])
    if (e !== '@smartconnect') rmSync(join(out, 'node_modules', e), { recursive: true, force: true });
  copyPackages();
} else if (existsSync(serverModules) && !existsSync(join(out, 'server', 'node_modules'))) {
  // In the repository the server's own package versions stay where npm put them.
  symlinkSync(serverModules, join(out, 'server', 'node_modules'), 'dir');
}
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
writeFileSync(
  join(out, 'package.json'),
  `${JSON.stringify(
    {
      name: 'smartconnect-release',
      version,
      private: true,
      type: 'module',
      engines: { node: '>=20.19' },
      scripts: {
        start: 'node server/src/main.js',
        backup: 'node server/src/backup.js backup',
        restore: 'node server/src/backup.js restore',
        'reports:rebuild': 'node server/src/rebuild-reports.js',
      },
    },
    null,
    2,
  )}\n`,
);
say(
  `${relative(root, out) || out} ready in ${((Date.now() - started) / 1000).toFixed(1)} s: node ${relative(process.cwd(), join(out, 'server/src/main.js'))}`,
);

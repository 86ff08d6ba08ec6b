// Runs every test file with Node's test runner (through tsx for TypeScript):
// unit and integration tests first, then the browser tests in e2e/.
// Under CI=true a browser test that cannot run is a failure, never a silent skip.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
const filter = process.argv.find((a) => a.startsWith('--grep='))?.slice(7);

function find(dir, pattern, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) find(path, pattern, out);
    else if (pattern.test(name)) out.push(relative(root, path));
  }
  return out;
}

const suites = {
  unit: ['contracts', 'server', 'web/src', 'widget', 'sdk'].flatMap((d) => {
    try {
      return find(join(root, d), /\.test\.tsx?$/);
    } catch {
      return [];
    }
  }),
  e2e: find(join(root, 'e2e'), /\.spec\.ts$/),
};

/** Browser tests with a time budget (LCP, web vitals): they run alone. */
const SOLO = /(landing|telemetry)\.spec\.ts$/;

// Browser tests need Debian's Chromium and a fresh build of web/ (the server serves web/dist).
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
function prepareE2e() {
  if (!existsSync(chromium)) {
    if (process.env.CI === 'true') {
      console.error(`\n✖ e2e: Chromium not found at ${chromium} (CI=true: a missing browser is a failure)`);
      return false;
    }
    console.log(
      `\n⚠ e2e: SKIPPED — Chromium not found at ${chromium}. Install it (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
    return null;
  }
  console.log(
    '\n▶ e2e: building widget/ and web/ where their sources changed (scripts/release.mjs --only=bundles)',
  );
  const build = spawnSync(process.execPath, ['scripts/release.mjs', '--only=bundles'], {
    stdio: 'inherit',
    cwd: root,
  });
  return build.status === 0;
}

let failed = false;
for (const [name, files] of Object.entries(suites)) {
  if (only && only !== name) continue;
  const selected = filter ? files.filter((f) => f.includes(filter)) : files;
  if (!selected.length) continue;
  if (name === 'e2e') {
    const ready = prepareE2e();
    if (ready === null) continue;
    if (!ready) {
      failed = true;
      continue;
    }
  }
  // Two files at a time (each has its own server and database); the browser tests that measure time (LCP, web
  // vitals) run first, one at a time, so a neighbour's load cannot push them over their budgets.
  const groups =
    name === 'e2e'
      ? [
          {
            label: 'e2e (timed, one at a time)',
            files: selected.filter((f) => SOLO.test(f)),
            concurrency: 1,
          },
          { label: 'e2e', files: selected.filter((f) => !SOLO.test(f)), concurrency: 2 },
        ]
      : [{ label: name, files: selected, concurrency: 2 }];
  for (const group of groups) {
    if (!group.files.length) continue;
    console.log(`\n▶ ${group.label}: ${group.files.length} file(s)`);
    const { status, output } = await run(process.execPath, [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      `--test-concurrency=${group.concurrency}`,
      ...group.files,
    ]);
    if (status !== 0) failed = true;
    const unexpected = unexpectedSkips(output);
    if (unexpected.length) {
      console.error(`\n✖ ${group.label}: ${unexpected.length} test(s) skipped that must run here (CI=true):`);
      for (const line of unexpected) console.error(`  ${line}`);
      failed = true;
    }
  }
}
process.exit(failed ? 1 : 0);

/** Runs a command, its output streamed through and kept for the skip check. */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'test' },
      stdio: ['inherit', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output += chunk;
    });
    child.on('close', (code) => resolve({ status: code ?? 1, output }));
  });
}

/**
 * Under CI=true every test must run, save those that need a PostgreSQL server in the embedded-database
 * pass (they run in the PostgreSQL pass, where nothing may be skipped). The spec reporter marks a skipped
 * test with "﹣" and its reason after " # ".
 */
function unexpectedSkips(output) {
  if (process.env.CI !== 'true') return [];
  const onPostgres = Boolean(process.env.DATABASE_URL);
  return output
    .split('\n')
    .filter((line) => line.trimStart().startsWith('﹣'))
    .filter((line) => onPostgres || !/ # needs PostgreSQL/.test(line))
    .map((line) => line.trim());
}

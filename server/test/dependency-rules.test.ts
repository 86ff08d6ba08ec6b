// The dependency rules of .dependency-cruiser.cjs (run by `npm run lint` over the real sources) catch what they are
// for: a tree with planted violations, cruised with the same configuration, reports each of them and nothing else.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;

test('a planted import of another module’s queries, and infrastructure importing a module, are violations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sc-deps-'));
  const files: Record<string, string> = {
    'tsconfig.base.json': JSON.stringify({
      compilerOptions: { allowImportingTsExtensions: true, module: 'nodenext', moduleResolution: 'nodenext' },
    }),
    // A module reaching into another's queries file, and into its own (allowed).
    'server/src/modules/templates/service.ts':
      "import { teamRows } from '../teams/queries.ts';\nimport { own } from './queries.ts';\nexport const t = [teamRows, own];\n",
    'server/src/modules/templates/queries.ts': 'export const own = 1;\n',
    'server/src/modules/teams/queries.ts': 'export const teamRows = 1;\n',
    // A module's command file (allowed), and infrastructure importing a module (not).
    'server/src/modules/teams/members.ts': "export { teamRows } from './queries.ts';\n",
    'server/src/modules/users/service.ts':
      "import { teamRows } from '../teams/members.ts';\nexport const u = teamRows;\n",
    'server/src/jobs/runner.ts': "import { u } from '../modules/users/service.ts';\nexport const r = u;\n",
  };
  try {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    let out: string;
    try {
      out = execFileSync(
        join(root, 'node_modules/.bin/depcruise'),
        ['server/src', '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'],
        { cwd: dir, encoding: 'utf8' },
      );
    } catch (err) {
      // depcruise exits non-zero when it finds an error-level violation; the report is still on its output.
      out = (err as { stdout: string }).stdout;
    }
    const report = JSON.parse(out) as {
      summary: { violations: { rule: { name: string }; from: string; to: string }[] };
    };
    assert.deepEqual(report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort(), [
      'infrastructure-not-domain: server/src/jobs/runner.ts -> server/src/modules/users/service.ts',
      'no-foreign-queries: server/src/modules/templates/service.ts -> server/src/modules/teams/queries.ts',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

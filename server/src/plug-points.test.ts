import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { setupModules } from './modules/setup.ts';
import { manyPlugPoint, onePlugPoint, plug, pluggedOf, plugPoints, plugsOf } from './plug-points.ts';

const SRC = new URL('.', import.meta.url).pathname;

test('a many point keeps its values once, in order; a one-value point takes the latest, else its fallback', () => {
  const steps = manyPlugPoint<() => string>('test.steps');
  const a = () => 'a';
  const b = () => 'b';
  plug(steps, a);
  plug(steps, b);
  plug(steps, a);
  assert.deepEqual(
    plugsOf(steps).map((f) => f()),
    ['a', 'b'],
  );
  const one = onePlugPoint('test.one', 'fallback');
  assert.equal(pluggedOf(one), 'fallback');
  plug(one, 'first');
  plug(one, 'second');
  assert.equal(pluggedOf(one), 'second');
  assert.throws(() => onePlugPoint('test.one', 'again'), /declared twice/);
});

test('after boot every plug point of the conversation has its value', () => {
  setupModules();
  const given = Object.fromEntries(plugPoints().map((p) => [p.name, p.given]));
  assert.deepEqual(
    {
      closeSteps: given['chats.closeStep'],
      handOverSteps: given['chats.handOverStep'],
      botTransfer: given['chats.botTransfer'],
      widgetExtras: given['siteChat.widgetExtras'],
      ratingPush: given['ratings.push'],
      userTeams: given['realtime.userTeams'],
      logOnlyReaders: given['realtime.logOnlyReaders'],
    },
    {
      closeSteps: 2,
      handOverSteps: 1,
      botTransfer: 1,
      widgetExtras: 1,
      ratingPush: 1,
      userTeams: 1,
      logOnlyReaders: 1,
    },
  );
});

/** Calls that plug a module into infrastructure or into another module. */
const REGISTERING =
  /\b(registerStage|registerTimer|registerPeriodic|registerPoller|registerOutboxHandler|registerTopic|registerReplayPolicy|plug)\(|\bonEvent\(['"]/;

test('each module registers in its one register.ts (modules/setup.ts runs them all), nowhere else', () => {
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
      const rel = relative(SRC, path);
      if (/^modules\/[^/]+\/register\.ts$/.test(rel) || rel === 'plug-points.ts') continue;
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (REGISTERING.test(line) && !/^\s*(export )?(async )?function |^\s*\*|^\s*\/\//.test(line))
            offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
  };
  walk(SRC);
  assert.deepEqual(offenders, []);
  const setup = readFileSync(join(SRC, 'modules/setup.ts'), 'utf8');
  const registers = readdirSync(join(SRC, 'modules')).filter((m) => {
    try {
      return statSync(join(SRC, 'modules', m, 'register.ts')).isFile();
    } catch {
      return false;
    }
  });
  for (const m of registers)
    assert.match(setup, new RegExp(`from '\\./${m}/register\\.ts'`), `${m}/register.ts runs at boot`);
});

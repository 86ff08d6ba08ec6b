/**
 * What the cluster benches share (bench/fanout.ts, bench/soak.ts): `scripts/cluster.mjs` started on a database of
 * their own, and an organisation's people made straight in the database, each with a session to use at once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import { type Db, openPostgres } from '../server/src/db/index.ts';
import { hashToken, randomToken } from '../server/src/lib/crypto.ts';
import { hashPassword } from '../server/src/lib/password.ts';
import { insertSession } from '../server/src/modules/auth/queries.ts';
import { insertOrganisation } from '../server/src/modules/organisations/queries.ts';
import { setUserTeams } from '../server/src/modules/teams/members.ts';
import { insertUser } from '../server/src/modules/users/queries.ts';
import { freePort, sharedDatabase } from '../server/test/integration/cluster-fixtures.ts';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

export type ClusterFile = { url: string; instances: { name: string; port: number; pid: number }[] };

/**
 * The cluster script (the release, `instances` behind nginx) on a new database and folder of the bench's own; resolves
 * once its cluster.json is written. `output: 'pipe'` leaves the script's output to `onSpawn` (proc.stdout, stderr).
 * `stop` stops the cluster gracefully, drops the database and removes the folder (kept with BENCH_KEEP).
 */
export async function benchCluster(o: {
  name: string;
  instances: number;
  redisUrl: string;
  output: 'inherit' | 'pipe';
  onSpawn?: (proc: ChildProcess, dir: string) => void;
}) {
  const database = await sharedDatabase(`sc_bench_${o.name}`);
  const dir = mkdtempSync(join(tmpdir(), `sc-bench-${o.name}-`));
  const port = await freePort();
  const db = await openPostgres(database.url, 4);
  const proc = spawn(
    process.execPath,
    [join(root, 'scripts/cluster.mjs'), `--instances=${o.instances}`, `--port=${port}`, `--dir=${dir}`],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        REDIS_URL: o.redisUrl,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        // The API channels' webhook addresses are on this machine.
        OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
      },
      stdio: ['ignore', o.output, o.output],
    },
  );
  o.onSpawn?.(proc, dir);
  const stop = async () => {
    if (proc.exitCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 60_000))]);
    }
    await db.close();
    await database.drop();
    if (process.env.BENCH_KEEP) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; !existsSync(join(dir, 'cluster.json')); i++) {
    if (i > 600 || proc.exitCode !== null) {
      await stop();
      throw new Error('the cluster did not start');
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { proc, dir, db, state: () => clusterState(dir), stop };
}

/** The cluster script's cluster.json (it is replaced whole, so a read never sees half of it). */
export const clusterState = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8')) as ClusterFile;

/** A new organisation with one team of manual distribution (every chat waits until an operator takes it). */
export async function organisationWithTeam(db: Db, prefix: string) {
  const org = await db.tx((q) =>
    insertOrganisation(q, {
      login: `${prefix}-${randomBytes(3).toString('hex')}`,
      name: prefix,
      adminEmail: `admin@${prefix}.test`,
      options: [...PLAN_OPTIONS],
    }),
  );
  const team = (
    await db.query<{ id: string }>(
      "insert into teams (organisation_id, name, description, distribution_method) values ($1, 'Queue', '', 'manual') returning id",
      [org.id],
    )
  )[0].id;
  const hash = await hashPassword('Passw0rd!');
  /** A member of the organisation with a role and teams, signed in: their token and session. */
  const person = async (o: { name: string; email: string; roleId: string; teams: string[] }) => {
    const token = randomToken();
    return db.tx(async (q) => {
      const userId = await insertUser(q, {
        organisationId: org.id,
        roleId: o.roleId,
        name: o.name,
        email: o.email,
        phone: null,
        passwordHash: hash,
        breakTimeoutMinutes: null,
        language: 'eng',
        active: true,
      });
      await setUserTeams(q, org.id, userId, o.teams);
      const session = await insertSession(q, {
        organisationId: org.id,
        userId,
        tokenHash: hashToken(token),
        now: new Date(),
      });
      return { userId, token, sessionId: session.id };
    });
  };
  return { org, team, person };
}

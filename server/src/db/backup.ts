import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Config } from '../config.ts';

/**
 * Backup and restore of an installation (issue 31; `npm run backup`, `npm run restore`): one .tar.gz holding the
 * database, the stored files and the installation's secret key.
 * - PostgreSQL (DATABASE_URL): `pg_dump --format=custom`, a consistent snapshot taken beside running servers;
 *   restored with `pg_restore` into an empty database.
 * - Embedded (PGlite under DATA_DIR): the data folder as PGlite dumps it; the server must be stopped first (PGlite
 *   belongs to one process), and the restore writes a new DATA_DIR/pglite.
 * - Files: DATA_DIR/files. With S3_BUCKET the bytes are in the bucket, whose own versioning or replication keeps them;
 *   the manifest says so and the archive holds none.
 * - DATA_DIR/secret.key, when SECRET_KEY is not set: channel credentials are encrypted with it, so a backup without
 *   it could not use them. The archive is therefore as secret as the installation itself.
 */
export type Manifest = {
  format: 1;
  createdAt: string;
  database: 'postgres' | 'pglite';
  /** The last migration applied: a restore into an older release is refused by the migrations check at start. */
  lastMigration: string | null;
  files: 'archive' | 's3';
  secretKey: boolean;
};

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('error', (e) => fail(new Error(`${cmd}: ${e.message}`)));
    child.on('close', (code) =>
      code === 0 ? ok() : fail(new Error(`${cmd} failed (${code}): ${err.trim()}`)),
    );
  });
}

const pgliteDir = (config: Config) => join(config.dataDir, 'pglite');

async function lastMigrationOf(query: (sql: string) => Promise<{ name: string }[]>): Promise<string | null> {
  try {
    return (await query('select name from schema_migrations order by name desc limit 1'))[0]?.name ?? null;
  } catch {
    return null;
  }
}

/** Writes the installation's backup to `out` (a .tar.gz) and answers its manifest. */
export async function backup(config: Config, out: string): Promise<Manifest> {
  const work = mkdtempSync(join(tmpdir(), 'sc-backup-'));
  try {
    let database: Manifest['database'];
    let lastMigration: string | null;
    if (config.databaseUrl) {
      database = 'postgres';
      const c = new pg.Client({ connectionString: config.databaseUrl });
      await c.connect();
      try {
        lastMigration = await lastMigrationOf(async (sql) => (await c.query(sql)).rows);
      } finally {
        await c.end();
      }
      await run('pg_dump', [
        '--format=custom',
        '--no-owner',
        `--file=${join(work, 'database.dump')}`,
        config.databaseUrl,
      ]);
    } else {
      database = 'pglite';
      if (!existsSync(pgliteDir(config))) throw new Error(`no embedded database in ${pgliteDir(config)}`);
      const db = await PGlite.create(pgliteDir(config));
      try {
        lastMigration = await lastMigrationOf(async (sql) => (await db.query<{ name: string }>(sql)).rows);
        await db.exec('checkpoint');
        const dump = await db.dumpDataDir('gzip');
        writeFileSync(join(work, 'pglite.tar.gz'), Buffer.from(await dump.arrayBuffer()));
      } finally {
        await db.close();
      }
    }
    const files = join(config.dataDir, 'files');
    if (!config.s3 && existsSync(files)) cpSync(files, join(work, 'files'), { recursive: true });
    const secret = join(config.dataDir, 'secret.key');
    const secretKey = !config.env.SECRET_KEY && existsSync(secret);
    if (secretKey) cpSync(secret, join(work, 'secret.key'));
    const manifest: Manifest = {
      format: 1,
      createdAt: new Date().toISOString(),
      database,
      lastMigration,
      files: config.s3 ? 's3' : 'archive',
      secretKey,
    };
    writeFileSync(join(work, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(dirname(resolve(out)), { recursive: true });
    await run('tar', ['-czf', resolve(out), '-C', work, ...readdirSync(work)]);
    return manifest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Restores a backup into an EMPTY installation (a database without tables, a DATA_DIR without a database or files):
 * never over live data. The kind of database must match the archive's.
 */
export async function restore(config: Config, archive: string): Promise<Manifest> {
  const work = mkdtempSync(join(tmpdir(), 'sc-restore-'));
  try {
    await run('tar', ['-xzf', resolve(archive), '-C', work]);
    const manifest = JSON.parse(readFileSync(join(work, 'manifest.json'), 'utf8')) as Manifest;
    if (manifest.format !== 1) throw new Error(`unknown backup format ${manifest.format}`);
    const target = config.databaseUrl ? 'postgres' : 'pglite';
    if (manifest.database !== target)
      throw new Error(
        `the backup holds a ${manifest.database} database; this installation uses ${target} (set or unset DATABASE_URL)`,
      );
    const files = join(config.dataDir, 'files');
    if (existsSync(files) && readdirSync(files).length)
      throw new Error(`${files} is not empty: restore into a new DATA_DIR`);
    const secretFile = join(config.dataDir, 'secret.key');
    if (config.databaseUrl) {
      const c = new pg.Client({ connectionString: config.databaseUrl });
      await c.connect();
      try {
        const { rows } = await c.query<{ n: number }>(
          "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
        );
        if (rows[0].n > 0) throw new Error('the database is not empty: restore into a new, empty database');
      } finally {
        await c.end();
      }
      await run('pg_restore', [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        `--dbname=${config.databaseUrl}`,
        join(work, 'database.dump'),
      ]);
    } else {
      const dir = pgliteDir(config);
      if (existsSync(dir) && readdirSync(dir).length)
        throw new Error(`${dir} is not empty: restore into a new DATA_DIR`);
      const data = readFileSync(join(work, 'pglite.tar.gz'));
      const db = await PGlite.create(dir, { loadDataDir: new Blob([data]) });
      await db.close();
    }
    mkdirSync(config.dataDir, { recursive: true });
    if (existsSync(join(work, 'files'))) cpSync(join(work, 'files'), files, { recursive: true });
    // The installation is empty (checked above), so a key in its DATA_DIR is only the one its first configuration
    // read made up: the backup's replaces it, or the restored channels' credentials could not be read.
    if (manifest.secretKey && !config.env.SECRET_KEY) cpSync(join(work, 'secret.key'), secretFile);
    return manifest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

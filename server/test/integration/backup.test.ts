import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { backup, restore } from '../../src/db/backup.ts';
import { openPglite, openPostgres } from '../../src/db/index.ts';
import { freshDatabase } from '../db.ts';
import {
  createOrganisation,
  loginToken,
  startTestServer,
  TEST_PASSWORD,
  TINY_PNG,
  uploadTinyPng,
} from '../helpers.ts';
import { inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

/*
 * Backup and restore (issue 31): an installation's backup restored into an empty one holds every chat, message and
 * file, and its channels still work (their credentials are encrypted with the installation key the backup carries).
 * On the embedded database (the server stopped first) and, in the PostgreSQL pass, with pg_dump / pg_restore beside
 * the running server.
 */
const BASE = process.env.DATABASE_URL;
const dirs: string[] = [];
const drops: (() => Promise<void>)[] = [];
const running = new Set<{ close(): Promise<void> }>();
after(async () => {
  for (const s of running) await s.close().catch(() => undefined);
  for (const d of drops) await d().catch(() => undefined);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tmp = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `sc-backup-${name}-`));
  dirs.push(d);
  return d;
};

/** A database for an installation in `dataDir`: embedded there, or a new one on the PostgreSQL server. */
async function databaseFor(dataDir: string) {
  if (!BASE)
    return { db: await openPglite(join(dataDir, 'pglite')), url: undefined, drop: async () => undefined };
  const fresh = await freshDatabase();
  return fresh;
}

/** A new, empty PostgreSQL database's URL (the restore's target), dropped after the test. */
async function emptyPostgres(): Promise<string> {
  const name = `sc_restore_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  drops.push(async () => {
    const c = new pg.Client({ connectionString: BASE });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  const url = new URL(BASE as string);
  url.pathname = `/${name}`;
  return url.toString();
}

test('a backup restored into an empty installation has every chat, message, file and working channel', async () => {
  const sourceDir = tmp('source');
  const database = await databaseFor(sourceDir);
  // No SECRET_KEY: the installation's key is DATA_DIR/secret.key, and the backup must carry it.
  const s = await startTestServer({ database, dataDir: sourceDir, env: { SECRET_KEY: '' } });
  running.add(s);
  const org = await createOrganisation(s);
  const team = await makeTeam(org, { method: 'manual' });
  const channel = await makeChannel(org, team);
  for (const text of ['First question', 'Second question'])
    assert.equal((await inbound(s, channel, { client: 'kept-client', text })).status, 200);
  const fileUrl = await uploadTinyPng(s.url, org.admin.token);
  const chats = await org.admin.api.get('/api/chats?filter=waiting');
  assert.equal(chats.status, 200, JSON.stringify(chats.body));
  const chatId: string = chats.body.entity.items[0].id;

  const archive = join(tmp('archives'), 'backup.tar.gz');
  const sourceConfig = loadConfig({ DATA_DIR: sourceDir, DATABASE_URL: database.url ?? '' });
  if (BASE) {
    // PostgreSQL: a consistent snapshot beside the running server.
    await backup(sourceConfig, archive);
    running.delete(s);
    await s.close();
  } else {
    // Embedded: the server stops first (PGlite belongs to one process).
    running.delete(s);
    await s.close();
    await backup(sourceConfig, archive);
  }
  assert.ok(existsSync(archive));

  // An empty installation: a new data folder and, on PostgreSQL, a new empty database.
  const targetDir = tmp('target');
  const targetUrl = BASE ? await emptyPostgres() : undefined;
  const targetConfig = loadConfig({ DATA_DIR: targetDir, DATABASE_URL: targetUrl ?? '' });
  const manifest = await restore(targetConfig, archive);
  assert.equal(manifest.database, BASE ? 'postgres' : 'pglite');
  assert.equal(manifest.secretKey, true);
  // Never over live data: a second restore into the same installation is refused.
  await assert.rejects(restore(targetConfig, archive), /not empty/);

  const restoredDb = targetUrl ? await openPostgres(targetUrl) : await openPglite(join(targetDir, 'pglite'));
  const r = await startTestServer({
    database: { db: restoredDb, url: targetUrl, drop: async () => undefined },
    dataDir: targetDir,
    env: { SECRET_KEY: '' },
  });
  running.add(r);
  try {
    const token = await loginToken(r.api, org.admin.email, TEST_PASSWORD);
    const api = r.api.as(token);
    const messages = await api.get(`/api/chats/${chatId}/messages`);
    assert.equal(messages.status, 200, JSON.stringify(messages.body));
    const texts = (messages.body.entity.items as { text: string }[]).map((m) => m.text);
    assert.ok(texts.includes('First question') && texts.includes('Second question'), JSON.stringify(texts));
    const file = await fetch(`${r.url}${fileUrl}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(file.status, 200);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), TINY_PNG);
    // The channel still takes messages with its key, into the same client's chat.
    assert.equal(
      (await inbound(r, channel, { client: 'kept-client', text: 'After the restore' })).status,
      200,
    );
    const after = await api.get(`/api/chats/${chatId}/messages`);
    assert.ok((after.body.entity.items as { text: string }[]).some((m) => m.text === 'After the restore'));
  } finally {
    running.delete(r);
    await r.close();
  }
});

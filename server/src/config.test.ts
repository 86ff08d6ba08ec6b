import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

test('defaults: port 3000, ./data, generated secret kept in DATA_DIR', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sc-config-'));
  const c = loadConfig({ DATA_DIR: dir });
  assert.equal(c.port, 3000);
  assert.equal(c.mediaDownloadConcurrency, 4);
  assert.equal(c.presenceOfflineGraceMs, 300_000, 'a closed last tab goes Offline after 5 minutes');
  assert.equal(c.ingestStatementTimeoutMs, 10_000);
  assert.equal(c.storageQuotaBytes, 10 * 1024 ** 3, '10 GiB of files per organisation');
  assert.equal(c.publicUrl, 'http://localhost:3000');
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.secretKey, readFileSync(join(dir, 'secret.key'), 'utf8'));
  assert.equal(loadConfig({ DATA_DIR: dir }).secretKey, c.secretKey, 'the same key on the next start');
});

test('every bad variable is named with what is wrong', () => {
  assert.throws(
    () =>
      loadConfig({
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        REDIS_URL: 'nope',
        SMTP_URL: 'http://mail',
        ADMIN_EMAIL: 'not-mail',
        SECRET_KEY: 'short',
        PAYMENT_PROVIDER: 'stripe',
        MEDIA_DOWNLOAD_CONCURRENCY: '0',
        PRESENCE_OFFLINE_GRACE_SECONDS: '1',
        INGEST_STATEMENT_TIMEOUT_MS: 'soon',
      }),
    (err: Error) => {
      assert.ok(err instanceof ConfigError);
      for (const name of [
        'PORT',
        'DATABASE_URL',
        'REDIS_URL',
        'SMTP_URL',
        'ADMIN_EMAIL',
        'SECRET_KEY',
        'PAYMENT_PROVIDER',
        'MEDIA_DOWNLOAD_CONCURRENCY',
        'PRESENCE_OFFLINE_GRACE_SECONDS',
        'INGEST_STATEMENT_TIMEOUT_MS',
      ]) {
        assert.match(err.message, new RegExp(`^  ${name}: `, 'm'), name);
      }
      return true;
    },
  );
});

test('PUBLIC_URL loses a trailing slash; empty variables count as unset', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sc-config-'));
  const c = loadConfig({
    DATA_DIR: dir,
    PUBLIC_URL: 'https://chat.example.com/',
    DATABASE_URL: '',
    PORT: '8080',
    MEDIA_DOWNLOAD_CONCURRENCY: '2',
  });
  assert.equal(c.publicUrl, 'https://chat.example.com');
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.port, 8080);
  assert.equal(c.mediaDownloadConcurrency, 2);
});

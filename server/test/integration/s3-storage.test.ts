import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
// @ts-expect-error s3rver ships no types: an S3-compatible server in this process, the test's "bucket service"
import S3rver from 's3rver';
import { loadConfig } from '../../src/config.ts';
import { s3Storage } from '../../src/lib/s3-storage.ts';
import { createServer, type Server } from '../../src/server.ts';
import {
  Api,
  createOrganisation,
  startTestServer,
  type TestServer,
  TINY_PNG,
  uploadTinyPng,
} from '../helpers.ts';

/*
 * Files across instances (issue 31): with S3_BUCKET every instance keeps file bytes in one S3-compatible bucket, so a
 * file uploaded through one instance downloads through another, and nothing lands on either instance's disk.
 */
const BUCKET = 'sc-files';
let s3dir: string;
let s3: { run(): Promise<{ port: number }>; close(): Promise<void> };
let env: Record<string, string>;
let a: TestServer;
let b: Server & { url: string; api: Api };
let bDataDir: string;

before(async () => {
  s3dir = mkdtempSync(join(tmpdir(), 'sc-s3rver-'));
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    directory: s3dir,
    silent: true,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await s3.run();
  env = {
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    S3_PREFIX: 'install-1/',
  };
  a = await startTestServer({ env });
  // A second instance on the same database, with its own (empty) data folder.
  bDataDir = mkdtempSync(join(tmpdir(), 'sc-test-b-'));
  const config = loadConfig({
    DATA_DIR: bDataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
    PUBLIC_URL: 'http://localhost:3000',
    ...env,
  });
  const server = await createServer(config, { db: a.db, clock: a.clock, mailer: { send: async () => {} } });
  await server.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = server.fastify.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  b = { ...server, url, api: new Api(url) };
});

after(async () => {
  // b shares a's database: closing b must not close it under a.
  await b?.fastify.close();
  await a?.close();
  await s3?.close();
  rmSync(s3dir, { recursive: true, force: true });
  rmSync(bDataDir, { recursive: true, force: true });
});

test('an upload through one instance downloads through another; neither keeps it on its disk', async () => {
  const org = await createOrganisation(a);
  const path = await uploadTinyPng(a.url, org.admin.token);
  const got = await fetch(`${b.url}${path}`, {
    headers: { authorization: `Bearer ${org.admin.token}` },
  });
  assert.equal(got.status, 200);
  assert.deepEqual(Buffer.from(await got.arrayBuffer()), TINY_PNG);
  // The bytes are in the bucket under the prefix, not in either data folder.
  assert.ok(!existsSync(join(a.dataDir, 'files')) || readdirSync(join(a.dataDir, 'files')).length === 0);
  assert.ok(!existsSync(join(bDataDir, 'files')));
  assert.ok(existsSync(join(s3dir, BUCKET)), 'the bucket has objects');
});

test('the S3 storage itself: put, get, open with size, remove; a missing key is null; a failed stream leaves nothing', async () => {
  const storage = await s3Storage({
    bucket: BUCKET,
    endpoint: env.S3_ENDPOINT,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    prefix: 'unit/',
  });
  try {
    await storage.put('abc123', Buffer.from('hello'));
    assert.equal((await storage.get('abc123'))?.toString(), 'hello');
    const opened = await storage.open('abc123');
    assert.equal(opened?.size, 5);
    assert.equal(await storage.get('nothing-here'), null);
    assert.equal(await storage.open('nothing-here'), null);
    await storage.remove('abc123');
    assert.equal(await storage.get('abc123'), null);

    // A stream of 6 MB (multipart: parts of 5 MB) arrives whole.
    const big = Buffer.alloc(6 * 1024 * 1024, 7);
    await storage.putStream('bigfile1', Readable.from([big.subarray(0, 3_000_000), big.subarray(3_000_000)]));
    assert.equal((await storage.open('bigfile1'))?.size, big.length);
    assert.ok((await storage.get('bigfile1'))?.equals(big));

    // A stream that fails half-way (a provider gone): the error comes back and nothing is stored.
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024, 1));
        this.destroy(new Error('provider went away'));
      },
    });
    await assert.rejects(storage.putStream('broken1', failing), /provider went away/);
    assert.equal(await storage.get('broken1'), null);
    await assert.rejects(storage.remove('../escape'), /bad storage key/);
  } finally {
    await storage.close();
  }
});

import { ConfigError, loadConfig } from './config.ts';
import { backup, restore } from './db/backup.ts';

/**
 * `npm run backup [-- --out=FILE]` and `npm run restore -- FILE` (db/backup.ts): the installation named by the
 * environment (DATABASE_URL or DATA_DIR, S3_BUCKET) into one .tar.gz, or such a file into an empty installation.
 * With the embedded database stop the server first; with PostgreSQL a backup may run beside live servers.
 */
const [command, ...rest] = process.argv.slice(2);
const option = (name: string) => rest.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
try {
  const config = loadConfig();
  const started = Date.now();
  if (command === 'backup') {
    const out =
      option('out') ?? `backups/smartconnect-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
    const m = await backup(config, out);
    console.log(
      `backup written to ${out} in ${Date.now() - started} ms (${m.database}, last migration ${m.lastMigration}, ` +
        `files ${m.files === 's3' ? 'kept in the S3 bucket, not in the archive' : 'included'}` +
        `${m.secretKey ? ', with the installation key: keep the file as secret as the server' : ''})`,
    );
  } else if (command === 'restore' && rest[0] && !rest[0].startsWith('--')) {
    const m = await restore(config, rest[0]);
    console.log(
      `restored ${rest[0]} (${m.database}, made ${m.createdAt}) in ${Date.now() - started} ms; start the server`,
    );
  } else {
    console.error('usage: npm run backup [-- --out=FILE]  |  npm run restore -- FILE');
    process.exit(2);
  }
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(`${command} failed: ${(err as Error).message}`);
  process.exit(1);
}

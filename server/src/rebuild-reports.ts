import { ConfigError, loadConfig } from './config.ts';
import { migrate } from './db/migrate.ts';
import { rebuildRollups } from './modules/reports/rollup-rebuild.ts';
import { openDatabase } from './server.ts';

/**
 * `npm run reports:rebuild`: drops the report rollups and builds them again from all history (set-based SQL).
 * With PostgreSQL it may run beside live servers (the cursor lock keeps their folding out meanwhile); with PGlite
 * (one process owns the data directory) stop the server first.
 */
try {
  const config = loadConfig();
  const db = await openDatabase(config);
  await migrate(db);
  const started = Date.now();
  await rebuildRollups(db);
  console.log(`report rollups rebuilt in ${Date.now() - started} ms`);
  await db.close();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  throw err;
}

import { ConfigError, loadConfig } from './config.ts';
import { createServer } from './server.ts';

try {
  const config = loadConfig();
  const server = await createServer(config);
  await server.fastify.listen({ port: config.port, host: config.host });
  server.app.log.info(`SmartConnect is serving on ${config.publicUrl} (database: ${server.app.db.kind})`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close().finally(() => process.exit(0));
    });
  }
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  throw err;
}

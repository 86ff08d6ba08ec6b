import { ConfigError, loadConfig } from './config.ts';
import { createServer } from './server.ts';

try {
  const config = loadConfig();
  const server = await createServer(config);
  await server.fastify.listen({ port: config.port, host: config.host });
  server.app.log.info(`SmartConnect is serving on ${config.publicUrl} (database: ${server.app.db.kind})`);
  // SIGTERM (a restart, a rolling upgrade) or Ctrl+C: drain and close (server.close), within SHUTDOWN_TIMEOUT_SECONDS;
  // a second signal, or the time running out, exits at once.
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      stopping = true;
      const started = Date.now();
      server.app.log.info({ signal }, 'shutting down: draining');
      const timer = setTimeout(() => {
        server.app.log.error({ ms: config.shutdownTimeoutMs }, 'shutdown took too long; exiting');
        process.exit(1);
      }, config.shutdownTimeoutMs);
      timer.unref();
      server.close().then(
        () => {
          server.app.log.info({ ms: Date.now() - started }, 'shut down');
          process.exit(0);
        },
        (err) => {
          server.app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  throw err;
}

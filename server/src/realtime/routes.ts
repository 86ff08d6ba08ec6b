import websocket from '@fastify/websocket';
import { REALTIME_CLOSE } from '@smartconnect/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AppContext, stateSlot } from '../context.ts';
import { type AuthContext, authenticate } from '../http/auth.ts';
import { Gateway, type GatewayOptions } from './gateway.ts';

/** The gateway of this app's sockets: made when the routes register, stopped on HTTP close. */
const GATEWAY = stateSlot<Gateway | undefined>('realtime.gateway', () => undefined);
const authOf = new WeakMap<FastifyRequest, AuthContext>();

/** The gateway serving this app's sockets (tests reach it to run its periodic work on demand). */
export function realtimeGateway(app: AppContext): Gateway | undefined {
  return app.state.peek(GATEWAY);
}

/**
 * The event id every event up to which is committed and sequenced here (null when this app serves no sockets): read
 * before a page's first data, it is where the page's first socket resumes (CurrentUserDto.eventCursor).
 */
export function eventCursor(app: AppContext): string | null {
  const gateway = app.state.peek(GATEWAY);
  return gateway ? String(gateway.watermark) : null;
}

/**
 * `GET /api/realtime?token=<token>[&lastEventId=<id>]`: one socket per browser tab. The token is checked
 * before the upgrade (401 when bad); the gateway then replays from lastEventId and streams live events.
 */
export async function realtimeRoutes(
  fastify: FastifyInstance,
  app: AppContext,
  options: Partial<GatewayOptions> = {},
): Promise<void> {
  const gateway = new Gateway(app, options);
  await gateway.start();
  app.state.set(GATEWAY, gateway);
  // Before the websocket plugin's own preClose (hooks run in the order added): every socket, staff and widget, is
  // told to reconnect elsewhere at once (1012) instead of being dropped without a code.
  fastify.addHook('preClose', async () => {
    gateway.drain();
    for (const client of fastify.websocketServer?.clients ?? [])
      client.close(REALTIME_CLOSE.serviceRestart, 'server restarting');
  });
  fastify.addHook('onClose', async () => {
    await gateway.stop();
  });
  await fastify.register(websocket, { options: { maxPayload: 64 * 1024 } });
  fastify.get(
    '/api/realtime',
    {
      websocket: true,
      preValidation: async (req) => {
        authOf.set(req, await authenticate(app, req));
      },
    },
    (socket, req) => {
      const auth = authOf.get(req);
      if (!auth) return socket.close(1011, 'not authenticated');
      const q = req.query as Record<string, unknown>;
      const last = typeof q.lastEventId === 'string' ? q.lastEventId : undefined;
      void gateway.accept(socket, auth, last);
    },
  );
}

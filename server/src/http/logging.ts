import type { FastifyServerOptions } from 'fastify';
import { traceIds } from '../lib/tracing.ts';

/**
 * Query parameters whose values are credentials: the websocket's `?token=`, provider keys and signatures, and what
 * a provider login carries (its `code`, our sealed `grant` and `state`, a client secret).
 */
const SECRET_PARAMS =
  /^(token|access_token|refresh_token|id_token|api_key|apikey|key|secret|client_secret|password|ticket|signature|sig|grant|code|state|hub\.verify_token)$/i;
export const REDACTED = '[REDACTED]';

/** The URL with the value of every credential-like query parameter replaced, for the log. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {}
      return SECRET_PARAMS.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

type RawRequest = {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
};

/**
 * Logger settings: requests are logged without credentials (no secret ever reaches a log line): query tokens
 * are redacted from URLs, and authorization and cookie headers are censored wherever a header object is logged.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    // With tracing on, a line logged inside a traced operation (a job, a delivery) carries its trace and span ids;
    // a request's lines have them bound already (lib/tracing.ts traceHttp).
    mixin(_merge: object, _level: number, logger?: { bindings(): Record<string, unknown> }) {
      const ids = traceIds();
      if (!ids || (logger && 'traceId' in logger.bindings())) return {};
      return ids;
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        'headers["x-telegram-bot-api-secret-token"]',
        'req.headers["x-telegram-bot-api-secret-token"]',
        'headers["x-api-key"]',
        'req.headers["x-api-key"]',
      ],
      censor: REDACTED,
    },
    serializers: {
      req: (req: RawRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}

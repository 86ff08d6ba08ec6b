import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PASSWORD_PATTERN } from '@smartconnect/contracts';
import { z } from 'zod';
import { parseAllowedNetworks } from './lib/outbound.ts';
import type { S3Options } from './lib/s3-storage.ts';

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    );

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.preprocess(emptyToUndefined, url(['http:', 'https:']).optional()),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.preprocess(emptyToUndefined, url(['postgres:', 'postgresql:']).optional()),
  REDIS_URL: z.preprocess(emptyToUndefined, url(['redis:', 'rediss:']).optional()),
  SMTP_URL: z.preprocess(emptyToUndefined, url(['smtp:', 'smtps:']).optional()),
  MAIL_FROM: z.string().default('SmartConnect <no-reply@smartconnect.local>'),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email().optional()),
  ADMIN_PASSWORD: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        PASSWORD_PATTERN,
        'must be at least 8 characters with an uppercase letter, a digit and a special character',
      )
      .optional(),
  ),
  SECRET_KEY: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(
      /^(true|false|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/,
      'must be true, false or a list of proxy addresses',
    )
    .default('false'),
  OUTBOUND_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .refine((v) => {
      try {
        parseAllowedNetworks(v);
        return true;
      } catch {
        return false;
      }
    }, 'must be a comma-separated list of CIDRs, addresses or host names'),
  SESSION_IDLE_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(600),
  METRICS_TOKEN: z.preprocess(
    emptyToUndefined,
    z.string().min(16, 'must be at least 16 characters').optional(),
  ),
  TELEMETRY: z.enum(['on', 'off']).default('on'),
  TELEMETRY_URL: z.preprocess(emptyToUndefined, url(['http:', 'https:']).optional()),
  TELEMETRY_API_KEY: z.preprocess(emptyToUndefined, z.string().max(512).optional()),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(emptyToUndefined, url(['http:', 'https:']).optional()),
  STORAGE_QUOTA_MB: z.coerce.number().int().min(0).max(100_000_000).default(10_240),
  PRESENCE_OFFLINE_GRACE_SECONDS: z.coerce.number().int().min(5).max(86_400).default(300),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().min(3).max(63).optional()),
  S3_ENDPOINT: z.preprocess(emptyToUndefined, url(['http:', 'https:']).optional()),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_.-]+\/)*$/, 'must be empty or folder names each ending with /')
    .default(''),
  INGEST_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  PAYMENT_PROVIDER: z.preprocess(emptyToUndefined, z.enum(['yookassa', 'demo', 'none']).optional()),
  MEDIA_DOWNLOAD_CONCURRENCY: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(64).default(4),
  ),
});

export type Config = {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  adminEmail?: string;
  adminPassword?: string;
  secretKey: string;
  logLevel: string;
  seedDemo: boolean;
  /** Whom to believe in X-Forwarded-For: nobody (false), any hop (true) or the listed proxy addresses. */
  trustProxy: boolean | string;
  /** Networks and host names that tenant-chosen URLs may reach although private or local (see lib/outbound.ts). */
  outboundAllowedNetworks: string;
  /** A session unused this long stops working. */
  sessionIdleDays: number;
  /** Requests one API key may make per minute (issue 34); more are answered 429 with Retry-After. */
  apiKeyRateLimit: number;
  /** Bearer token for GET /metrics; without it only this machine (loopback, not proxied) may read them. */
  metricsToken?: string;
  /**
   * Web telemetry (Faro): off, or sent to `url` (an external collector, with `apiKey` in its header) or, without
   * a url, to this server's own collector POST /api/telemetry.
   */
  telemetry: { enabled: boolean; url?: string; apiKey?: string };
  /**
   * Who takes top-ups, when PAYMENT_PROVIDER names it: YooKassa (its shop's keys in YOOKASSA_*), the built-in demo
   * payment page (no money moves), or nobody (§8 'billing account not registered'). Unset: YooKassa when its shop is
   * configured, else the demo page for the seeded Demo organisation alone (so a new installation can try the whole
   * finance path) and nobody for any other organisation (billing/provider.ts). `demo` gives every organisation the page.
   */
  paymentProvider?: 'yookassa' | 'demo' | 'none';
  /**
   * The longest an inbound batch's statement may run on PostgreSQL before it is cancelled, so one organisation's slow
   * statement cannot hold another's messages; the batch is then written one message at a time
   * (modules/conversation/ingest.ts).
   */
  ingestStatementTimeoutMs: number;
  /**
   * How long a user 'In work' or on a break may have no tab open anywhere before they are set Offline: a reload, a
   * network blip or signing in again within it changes nothing (issue 36).
   */
  presenceOfflineGraceMs: number;
  /** SIGTERM/SIGINT: how long a graceful shutdown may take before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Files in an S3-compatible bucket instead of DATA_DIR/files (S3_BUCKET set): shared by every instance. */
  s3?: S3Options;
  /** What one organisation's stored files may take, in bytes; 0: no limit (STORAGE_QUOTA_MB). */
  storageQuotaBytes: number;
  /** How many provider media files this server downloads at once (the others wait their turn). */
  mediaDownloadConcurrency: number;
  /** The environment as given: channel adapters read their own variables from it (e.g. TELEGRAM_API_BASE_URL). */
  env: Readonly<Record<string, string | undefined>>;
};

export class ConfigError extends Error {}

/** Reads and validates the environment; every bad variable is named with what is wrong with it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // The library's own wording for operators reading the console (the contracts set a user-facing default).
  const english = z.locales.en();
  const parsed = envSchema.safeParse(env, { error: (issue) => english.localeError(issue) });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    secretKey: e.SECRET_KEY ?? persistentSecret(dataDir),
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO === 'true',
    trustProxy: e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY === 'false' ? false : e.TRUST_PROXY,
    outboundAllowedNetworks: e.OUTBOUND_ALLOWED_NETWORKS,
    sessionIdleDays: e.SESSION_IDLE_DAYS,
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
    metricsToken: e.METRICS_TOKEN,
    telemetry: { enabled: e.TELEMETRY === 'on', url: e.TELEMETRY_URL, apiKey: e.TELEMETRY_API_KEY },
    paymentProvider: e.PAYMENT_PROVIDER,
    ingestStatementTimeoutMs: e.INGEST_STATEMENT_TIMEOUT_MS,
    presenceOfflineGraceMs: e.PRESENCE_OFFLINE_GRACE_SECONDS * 1000,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
          prefix: e.S3_PREFIX,
        }
      : undefined,
    storageQuotaBytes: e.STORAGE_QUOTA_MB * 1024 * 1024,
    mediaDownloadConcurrency: e.MEDIA_DOWNLOAD_CONCURRENCY,
    env: { ...env },
  };
}

/** A SECRET_KEY generated once and kept in DATA_DIR, so restarts can still decrypt what it encrypted. */
function persistentSecret(dataDir: string): string {
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}

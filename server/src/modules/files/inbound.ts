import { Readable } from 'node:stream';
import type { MediaDownload } from '../../channels/types.ts';
import { type AppContext, stateSlot } from '../../context.ts';
import { randomToken } from '../../lib/crypto.ts';
import { createSemaphore, type Semaphore } from '../../lib/semaphore.ts';
import { recordFile } from './service.ts';
import { receivedType, SNIFF_BYTES } from './sniff.ts';

/** A received file passed the type's limit: `size` when it was known before reading (Content-Length), else absent. */
export class FileTooLargeError extends Error {
  constructor(
    readonly maxBytes: number,
    readonly size?: number,
  ) {
    super('file too big');
  }
}

/** The organisation's file storage is full (STORAGE_QUOTA_MB): the file is not kept. */
export class StorageFullError extends Error {
  constructor() {
    super('storage full');
  }
}

/** Bytes the organisation's stored files take (files_org_size_idx: an index-only sum). */
export async function storageUsed(app: AppContext, organisationId: string): Promise<number> {
  const [row] = await app.db.query<{ used: number }>(
    'select coalesce(sum(size), 0)::int8 as used from files where organisation_id = $1',
    [organisationId],
  );
  return Number(row?.used ?? 0);
}

/** What the organisation may still store (Infinity without a quota). */
export async function storageLeft(app: AppContext, organisationId: string): Promise<number> {
  const quota = app.config.storageQuotaBytes;
  if (!quota) return Number.POSITIVE_INFINITY;
  return Math.max(0, quota - (await storageUsed(app, organisationId)));
}

/** A received file as kept: its storage key, size and the type its content bears out. */
export type KeptFile = { key: string; size: number; contentType: string };

// One cap per server (the process runs one): webhooks of every channel share it.
const DOWNLOAD_CAP = stateSlot<Semaphore>('files.download-cap', (app) =>
  createSemaphore(app.config.mediaDownloadConcurrency),
);

/**
 * Runs one provider download (its request and its streaming into storage) under the server's cap on concurrent
 * downloads (MEDIA_DOWNLOAD_CONCURRENCY): the others wait their turn, so memory, sockets and disk bandwidth stay
 * bounded however many files arrive at once.
 */
export function underDownloadCap<T>(app: AppContext, fn: () => Promise<T>): Promise<T> {
  return app.state.of(app, DOWNLOAD_CAP).run(fn);
}

/**
 * Streams a provider's file into storage for the organisation, never holding it whole: refused before reading when
 * its announced size passes `maxBytes`, cut off (and its bytes removed) as soon as the count passes it, then kept
 * under the type its first bytes show (sniff.ts). Throws FileTooLargeError, or the stream's own error when the
 * provider fails midway; nothing is left stored when it throws.
 */
export async function keepDownload(
  app: AppContext,
  organisationId: string,
  file: MediaDownload,
  maxBytes: number,
): Promise<KeptFile> {
  if (file.size !== undefined && file.size > maxBytes) {
    file.stream.destroy();
    throw new FileTooLargeError(maxBytes, file.size);
  }
  // The organisation's quota: a file that would pass it is not kept (refused up front when its size is known, cut
  // off when its bytes reach it). Concurrent downloads may overshoot it by what they hold between them.
  const left = await storageLeft(app, organisationId);
  if (left <= 0 || (file.size !== undefined && file.size > left)) {
    file.stream.destroy();
    throw new StorageFullError();
  }
  const head: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  async function* metered(source: AsyncIterable<Buffer | Uint8Array>) {
    for await (const chunk of source) {
      size += chunk.length;
      // Leaving the loop destroys the provider's stream, which aborts the request.
      if (size > maxBytes) throw new FileTooLargeError(maxBytes);
      if (size > left) throw new StorageFullError();
      if (headBytes < SNIFF_BYTES) {
        const part = Buffer.from(chunk.subarray(0, SNIFF_BYTES - headBytes));
        head.push(part);
        headBytes += part.length;
      }
      yield chunk;
    }
  }
  const key = randomToken();
  try {
    await app.storage.putStream(key, Readable.from(metered(file.stream)));
  } catch (err) {
    // Storage may fail before reading a byte: the provider's request is not left open.
    file.stream.destroy();
    throw err;
  }
  try {
    const contentType = await receivedType(Buffer.concat(head), file.contentType, size > headBytes);
    await recordFile(app.db, key, organisationId, contentType, size);
    return { key, size, contentType };
  } catch (err) {
    await app.storage.remove(key);
    throw err;
  }
}

import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where file bytes live (avatars, attachments, recordings): local disk by default. */
export type Storage = {
  put(key: string, data: Buffer): Promise<void>;
  /**
   * Writes a stream as it arrives (a provider's media file), never holding it whole; when the stream fails (a
   * limit passed, the provider gone) nothing is left under the key and the stream's error is thrown.
   */
  putStream(key: string, data: Readable): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  /** The bytes as a stream to send on (a download), with their size; null when there are none. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  remove(key: string): Promise<void>;
  /** Releases connections (S3); the server's close() calls it. */
  close?(): Promise<void>;
};

export function diskStorage(root: string): Storage {
  const path = (key: string) => {
    if (!/^[A-Za-z0-9_-]+$/.test(key)) throw new Error('bad storage key');
    return join(root, key.slice(0, 2), key);
  };
  return {
    async put(key, data) {
      await mkdir(join(root, key.slice(0, 2)), { recursive: true });
      await writeFile(path(key), data);
    },
    async putStream(key, data) {
      const file = path(key);
      await mkdir(join(root, key.slice(0, 2)), { recursive: true });
      try {
        await pipeline(data, createWriteStream(file));
      } catch (err) {
        await rm(file, { force: true });
        throw err;
      }
    },
    async get(key) {
      try {
        return await readFile(path(key));
      } catch {
        return null;
      }
    },
    async open(key) {
      const file = path(key);
      const info = await stat(file).catch(() => null);
      return info?.isFile() ? { stream: createReadStream(file), size: info.size } : null;
    },
    async remove(key) {
      await rm(path(key), { force: true });
    },
  };
}

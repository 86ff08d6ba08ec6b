import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where file bytes live (avatars, attachments, recordings): local disk by default. */
export type Storage = {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
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
    async get(key) {
      try {
        return await readFile(path(key));
      } catch {
        return null;
      }
    },
    async remove(key) {
      await rm(path(key), { force: true });
    },
  };
}

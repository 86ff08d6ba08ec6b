import type { Readable } from 'node:stream';
import type { Storage } from './storage.ts';

/** An S3-compatible bucket (AWS S3, MinIO, Yandex Object Storage, ...) for the files of every instance. */
export type S3Options = {
  bucket: string;
  /** The service's address for a non-AWS provider (MinIO: http://minio:9000); AWS when absent. */
  endpoint?: string;
  region: string;
  /** Static credentials; absent: the SDK's default chain (environment, instance role, ...). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Bucket in the path (http://host/bucket/key) rather than the host name: MinIO and most self-hosted servers. */
  forcePathStyle: boolean;
  /** Put before every key (one bucket shared by several installations). */
  prefix: string;
};

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * Files in an S3-compatible bucket (AWS SDK v3), laid out as on disk: `<prefix><first two characters>/<key>`. Loaded
 * only when configured (S3_BUCKET), so a start on local disk does not pay for the SDK. A stream is uploaded as it
 * arrives (multipart past 5 MB, @aws-sdk/lib-storage); a failed one leaves nothing under its key.
 */
export async function s3Storage(o: S3Options): Promise<Storage & { close(): Promise<void> }> {
  const { S3Client, PutObjectCommand, GetObjectCommand, DeleteObjectCommand } = await import(
    '@aws-sdk/client-s3'
  );
  const { Upload } = await import('@aws-sdk/lib-storage');
  const client = new S3Client({
    region: o.region,
    endpoint: o.endpoint,
    forcePathStyle: o.forcePathStyle,
    credentials:
      o.accessKeyId && o.secretAccessKey
        ? { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey }
        : undefined,
  });
  const keyOf = (key: string) => {
    if (!/^[A-Za-z0-9_-]+$/.test(key)) throw new Error('bad storage key');
    return `${o.prefix}${key.slice(0, 2)}/${key}`;
  };
  const remove = async (key: string) => {
    await client.send(new DeleteObjectCommand({ Bucket: o.bucket, Key: keyOf(key) }));
  };
  const open = async (key: string) => {
    try {
      const res = await client.send(new GetObjectCommand({ Bucket: o.bucket, Key: keyOf(key) }));
      if (!res.Body) return null;
      return { stream: res.Body as Readable, size: res.ContentLength ?? 0 };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  };
  return {
    async put(key, data) {
      await client.send(
        new PutObjectCommand({ Bucket: o.bucket, Key: keyOf(key), Body: data, ContentLength: data.length }),
      );
    },
    async putStream(key, data) {
      try {
        await new Upload({ client, params: { Bucket: o.bucket, Key: keyOf(key), Body: data } }).done();
      } catch (err) {
        await remove(key).catch(() => undefined);
        throw err;
      }
    },
    async get(key) {
      const found = await open(key);
      if (!found) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of found.stream) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks);
    },
    open,
    remove,
    async close() {
      client.destroy();
    },
  };
}

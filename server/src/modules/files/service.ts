import { LIMITS, FIELD_MESSAGES as M } from '@smartconnect/contracts';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { randomToken } from '../../lib/crypto.ts';

/** Reads the uploaded picture (multipart field or a raw image/jpeg body) and accepts only a real JPEG of at most 200 KB. */
export async function readJpegUpload(req: FastifyRequest): Promise<Buffer> {
  let data: Buffer;
  if (req.isMultipart()) {
    const part = await req.file({ limits: { fileSize: LIMITS.avatarMaxBytes + 1 } });
    if (!part) throw new AppError('fileUploadException');
    data = await part.toBuffer().catch((err: { code?: string }) => {
      if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw tooBig();
      throw new AppError('fileUploadException');
    });
    if (part.file.truncated) throw tooBig();
  } else if (Buffer.isBuffer(req.body)) {
    data = req.body;
  } else {
    throw new AppError('fileUploadException');
  }
  if (data.length > LIMITS.avatarMaxBytes) throw tooBig();
  const type = await fileTypeFromBuffer(data);
  if (type?.mime !== 'image/jpeg') throw new AppError('fileUploadException', { file: M.jpegOnly });
  return data;
}

const tooBig = () => new AppError('pictureTooBigException', undefined, { maxBytes: LIMITS.avatarMaxBytes });

/** Stores bytes under a new unguessable key and records whose they are. */
export async function saveFile(
  app: AppContext,
  q: Queryable,
  organisationId: string,
  data: Buffer,
  contentType: string,
) {
  const key = randomToken();
  await app.storage.put(key, data);
  await q.query('insert into files (key, organisation_id, content_type, size) values ($1, $2, $3, $4)', [
    key,
    organisationId,
    contentType,
    data.length,
  ]);
  return key;
}

export async function removeFile(app: AppContext, q: Queryable, key: string | null) {
  if (!key) return;
  await q.query('delete from files where key = $1', [key]);
  await app.storage.remove(key);
}

/** The bytes of one of the organisation's files named by its URL (`/api/files/{key}`, relative or on our address); null otherwise. */
export async function readStoredFile(app: AppContext, organisationId: string, url: string) {
  const path = url.startsWith(`${app.config.publicUrl}/`) ? url.slice(app.config.publicUrl.length) : url;
  const key = /^\/api\/files\/([A-Za-z0-9_-]{20,})$/.exec(path)?.[1];
  if (!key) return null;
  const meta = (
    await app.db.query<{ content_type: string }>(
      'select content_type from files where key = $1 and organisation_id = $2',
      [key, organisationId],
    )
  )[0];
  const data = meta && (await app.storage.get(key));
  return data ? { data, contentType: meta.content_type } : null;
}

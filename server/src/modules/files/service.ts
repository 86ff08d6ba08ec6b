import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES,
  type Attachment,
  LIMITS,
  FIELD_MESSAGES as M,
} from '@smartconnect/contracts';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { randomToken } from '../../lib/crypto.ts';
import { isPlainText } from './sniff.ts';

/** Reads the uploaded picture (multipart field or a raw image/jpeg body) and accepts only a real JPEG of at most 200 KB. */
export async function readJpegUpload(req: FastifyRequest): Promise<Buffer> {
  let data: Buffer;
  if (req.isMultipart()) {
    const part = await filePart(req, LIMITS.avatarMaxBytes + 1);
    if (!part) throw new AppError('fileUploadException');
    data = await part.toBuffer().catch((err: { code?: string }) => {
      if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw tooBig();
      throw malformed();
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

/**
 * A multipart body the parser cannot read (no boundary, a cut-off body, a broken part header) is the client's
 * mistake: the catalogue's validation error, never a 500.
 */
const malformed = () => new AppError('validationException', { file: M.incorrectValue });

/** The form's first file part (null when it has none); a malformed form is a validation error. */
async function filePart(req: FastifyRequest, fileSize: number) {
  try {
    return (await req.file({ limits: { fileSize } })) ?? null;
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw err;
    throw malformed();
  }
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
  await recordFile(q, key, organisationId, contentType, data.length);
  return key;
}

/** Records whose stored bytes a key names. */
export async function recordFile(
  q: Queryable,
  key: string,
  organisationId: string,
  contentType: string,
  size: number,
) {
  await q.query('insert into files (key, organisation_id, content_type, size) values ($1, $2, $3, $4)', [
    key,
    organisationId,
    contentType,
    size,
  ]);
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

/** The type of a file by its content (never its name or declared type); null when it is not one we accept. */
export async function attachmentType(data: Buffer): Promise<string | null> {
  const found = await fileTypeFromBuffer(data);
  const mime = found?.mime ?? (isPlainText(data) ? 'text/plain' : null);
  return mime && (ATTACHMENT_TYPES as readonly string[]).includes(mime) ? mime : null;
}

const tooLarge = () =>
  new AppError('payloadTooLargeException', { file: M.valueIncorrect }, { maxBytes: ATTACHMENT_MAX_BYTES });

/**
 * An operator's attachment (multipart field `file`): at most ATTACHMENT_MAX_BYTES, its type recognised by content
 * (ATTACHMENT_TYPES), stored for the organisation; answers the attachment to send with a message.
 */
export async function uploadAttachment(
  app: AppContext,
  organisationId: string,
  req: FastifyRequest,
): Promise<Required<Attachment>> {
  if (!req.isMultipart()) throw new AppError('fileUploadException', { file: M.requiredFields });
  const part = await filePart(req, ATTACHMENT_MAX_BYTES + 1);
  if (!part) throw new AppError('fileUploadException', { file: M.requiredFields });
  const data = await part.toBuffer().catch((err: { code?: string }) => {
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw malformed();
  });
  if (part.file.truncated || data.length > ATTACHMENT_MAX_BYTES) throw tooLarge();
  const contentType = await attachmentType(data);
  if (!contentType) throw new AppError('fileUploadException', { file: M.valueIncorrect });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are dropped from the name
  const name = (part.filename || 'file').replace(/[\u0000-\u001F\u007F/\\]/g, '').slice(0, 255) || 'file';
  const key = await saveFile(app, app.db, organisationId, data, contentType);
  return { url: `${app.config.publicUrl}/api/files/${key}`, name, contentType, size: data.length };
}

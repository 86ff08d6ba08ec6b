import { ATTACHMENT_MAX_BYTES, ATTACHMENT_TYPES, attachmentSchema, LIMITS } from '@smartconnect/contracts';
import { z } from 'zod';
import { maybe } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { definePublicRoute, defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { uploadAttachment } from './service.ts';

export const fileRoutes: ModuleRoutes = (fastify, app) => {
  // Raw picture bodies for avatar uploads without multipart. Any image type is read so that the JPEG check can
  // name what is wrong; the limit only needs to be above the avatar limit for the size check to say so.
  fastify.addContentTypeParser(
    /^(image\/[\w.+-]+|application\/octet-stream)$/,
    { parseAs: 'buffer', bodyLimit: 4 * LIMITS.avatarMaxBytes },
    (_req, body, done) => done(null, body),
  );

  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/files/:key',
      access: 'public',
      raw: true,
      summary: 'A stored file by its unguessable key (avatars, attachments)',
      tags: ['files'],
      params: z.object({ key: z.string().regex(/^[A-Za-z0-9_-]{20,}$/, 'Not found') }),
    },
    async ({ params, reply }) => {
      const meta = await maybe<{ content_type: string }>(
        app.db,
        'select content_type from files where key = $1',
        [params.key],
      );
      // Streamed from storage: a large file is never held whole while it is sent.
      const data = meta && (await app.storage.open(params.key));
      if (!meta || !data) throw new AppError('imageNotFoundException');
      // Pictures show in place; anything else is downloaded, never rendered as a page of ours.
      const inline = /^image\/(jpeg|png|gif|webp)$/.test(meta.content_type);
      return reply
        .type(meta.content_type)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', inline ? 'inline' : 'attachment')
        .header('content-length', data.size)
        .send(data.stream);
    },
  );

  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/files',
      access: 'user',
      response: attachmentSchema.required(),
      summary: `Upload a file to attach to a message (multipart field \`file\`, at most ${ATTACHMENT_MAX_BYTES} bytes; its type is read from its content: ${ATTACHMENT_TYPES.join(', ')}); answers the attachment {url, name, contentType, size} to send in POST /api/chats/{id}/messages`,
      tags: ['files'],
    },
    async ({ auth, req }) => uploadAttachment(app, auth.organisationId, req),
  );
};

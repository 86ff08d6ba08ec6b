import { LIMITS } from '@smartconnect/contracts';
import { z } from 'zod';
import { maybe } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { definePublicRoute, type ModuleRoutes } from '../../http/route.ts';

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
      const data = meta && (await app.storage.get(params.key));
      if (!meta || !data) throw new AppError('imageNotFoundException');
      return reply
        .type(meta.content_type)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(data);
    },
  );
};

import {
  chatRatingDto,
  chatRatingStateDto,
  idParams,
  linkActionBodySchema,
  linkActionDto,
} from '@smartconnect/contracts';
import { z } from 'zod';
import { definePublicRoute, defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { userActor } from '../../lib/actor.ts';
import { getChat } from '../chats/service.ts';
import { askForRating, chatRatings, linkAction, rate, ratingState } from './service.ts';

const tags = ['ratings'];
const uuidParams = z.object({ uuid: z.uuid('Not found') });

/** The rating page's link (public: the link is the client's credential) and a chat's ratings. */
export const ratingRoutes: ModuleRoutes = (fastify, app) => {
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/link-actions/:uuid',
      access: 'public',
      response: linkActionDto,
      summary: 'A rating link: whether it was used (404 when unknown or expired)',
      tags,
      params: uuidParams,
    },
    async ({ params }) => linkAction(app, params.uuid),
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/link-actions/:uuid',
      access: 'public',
      response: linkActionDto,
      summary:
        "Rate the service 1..5 through a one-time link: 200 recorded on the chat session, 409 ratingAlreadySentException ('Rating already sent') once used, 404 when unknown or expired",
      tags,
      params: uuidParams,
      body: linkActionBodySchema,
    },
    async ({ params, body }) => rate(app, params.uuid, body.score),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/chats/:id/ratings',
      scope: 'chats:read',
      access: 'user',
      response: z.array(chatRatingDto),
      summary: "A chat's service ratings, one per rated session, newest first (who may read the chat)",
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await getChat(app, auth, params.id);
      return chatRatings(app, auth.organisationId, params.id);
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/chats/:id/rating-request',
      access: { option: 'OPTION_QUALITY_ASSESSMENT' },
      response: chatRatingStateDto,
      summary: "The current session's rating request and score, and whether the operator may ask now",
      tags,
      params: idParams,
    },
    async ({ auth, params }) => ratingState(app, await getChat(app, auth, params.id)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/chats/:id/rating-request',
      scope: 'chats:write',
      access: { option: 'OPTION_QUALITY_ASSESSMENT' },
      response: chatRatingStateDto,
      summary:
        "Ask the client for a rating before the end (the channel's assessment.beforeEnd): once per session, 409 ratingLimitExceededException ('Message limit exceeded for bot rating'); 404 qualityAssessmentNotFoundException when the channel does not allow it",
      tags,
      params: idParams,
    },
    async ({ auth, params }) => askForRating(app, userActor(auth), params.id),
  );
};

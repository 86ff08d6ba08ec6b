import {
  accountUpdateSchema,
  currentUserDto,
  loginResultDto,
  loginSchema,
  logoutSchema,
  FIELD_MESSAGES as M,
  passwordChangeSchema,
  queryFlag,
  recoveryCheckSchema,
  recoveryRequestSchema,
  recoveryResetSchema,
  toggleTwoFactorSchema,
  tokenDto,
  twoFactorEnrolmentDto,
  twoFactorLoginSchema,
  userShortDto,
} from '@smartconnect/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { bearerToken } from '../../http/auth.ts';
import { definePublicRoute, defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { readJpegUpload } from '../files/service.ts';
import { presentUserShort } from '../users/presenter.ts';
import { getUser, replacePhoto, searchUsersShort, updateOwnAccount } from '../users/service.ts';
import * as S from './service.ts';

const tags = ['identity'];

const client = (req: FastifyRequest): S.LoginClient => ({ ip: req.ip, cookie: req.headers.cookie });
/** A sign-in's answer, with the known-device cookie when it completed. */
function signed<T>(reply: FastifyReply, out: S.Signed<T>): T {
  if (out.deviceCookie) reply.header('set-cookie', out.deviceCookie);
  return out.result;
}

export const authRoutes: ModuleRoutes = (fastify, app) => {
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/auth/login',
      access: 'public',
      response: loginResultDto,
      summary:
        'Log in with e-mail and password. 429 tooManyRequestsException past the per-address limits; after many failed ' +
        'sign-ins of the account, a browser without its known-device cookie gets 400 invalidCaptchaException until it ' +
        'sends `captcha` (a solved GET /api/signup/challenge), then 429 with Retry-After while the account waits ' +
        'between attempts. A completed sign-in sets the known-device cookie.',
      tags,
      body: loginSchema,
    },
    async ({ body, req, reply }) => signed(reply, await S.login(app, body, client(req))),
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/auth/login/two-factor',
      access: 'public',
      response: tokenDto,
      summary:
        'Second login step: the ticket and a 6-digit authenticator code. A ticket takes 5 wrong codes, then ' +
        '401 loginTicketExpiredException (log in again); wrong codes count as failed sign-ins of the account. ' +
        'Sets the known-device cookie.',
      tags,
      body: twoFactorLoginSchema,
    },
    async ({ body, req, reply }) =>
      signed(reply, await S.loginTwoFactor(app, body.ticket, body.code, client(req))),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/auth/user',
      access: 'user',
      response: currentUserDto,
      summary: 'The current user with role, rights and plan options',
      tags,
      query: z.object({ pwa: queryFlag, token: z.string().optional() }),
    },
    async ({ auth, query }) => S.currentUser(app, auth, query.pwa),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/auth/generate',
      access: 'user',
      response: twoFactorEnrolmentDto,
      summary: 'New two-factor secret with otpauth URI and QR image',
      tags,
    },
    async ({ auth }) => S.generateTwoFactor(app, auth),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/auth/toggle',
      access: 'user',
      response: z.object({ enabled: z.boolean() }),
      summary: 'Enable or disable two-factor login',
      tags,
      body: toggleTwoFactorSchema,
    },
    async ({ auth, body }) => S.toggleTwoFactor(app, auth, body.enabled, body.totpCode),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/auth/acc/update',
      access: 'user',
      response: currentUserDto,
      summary: 'Update own account',
      tags,
      body: accountUpdateSchema,
    },
    async ({ auth, body }) => {
      await updateOwnAccount(app, auth, body);
      return S.currentUser(app, auth);
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PUT',
      url: '/api/auth/acc/photo',
      access: 'user',
      response: currentUserDto,
      summary: 'Upload own photo (JPEG, at most 200 KB)',
      tags,
    },
    async ({ auth, req }) => {
      const data = await readJpegUpload(req);
      await replacePhoto(app, await getUser(app, auth.organisationId, auth.userId), data);
      return S.currentUser(app, auth);
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/auth/acc/photo',
      access: 'user',
      response: currentUserDto,
      summary: 'Remove own photo',
      tags,
    },
    async ({ auth }) => {
      await replacePhoto(app, await getUser(app, auth.organisationId, auth.userId), null);
      return S.currentUser(app, auth);
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/auth/acc/passwordChange',
      access: 'user',
      response: tokenDto,
      summary: 'Change own password; revokes every token and returns a new one',
      tags,
      body: passwordChangeSchema,
    },
    async ({ auth, body }) => S.changePassword(app, auth, body.oldPassword, body.password),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/acc/user/short',
      access: 'user',
      response: z.array(userShortDto),
      summary: 'Short user search by name in own organisation',
      tags,
      query: z.object({ name: z.string().trim().max(255).default('') }),
    },
    async ({ auth, query }) =>
      (await searchUsersShort(app, auth.organisationId, query.name)).map(presentUserShort),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/auth/acc/logout',
      access: 'user',
      response: z.null(),
      summary: 'Log out: revoke the token',
      tags,
      body: logoutSchema,
    },
    async ({ auth, body, req }) => {
      await S.logout(app, auth, body.token, bearerToken(req)!);
      return { loggedOut: true };
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/auth/recovery',
      access: 'public',
      response: z.object({ email: z.string() }),
      summary:
        'Send a password recovery link (it supersedes earlier ones; all die when the password changes). Needs ' +
        '`captcha`, a solved GET /api/signup/challenge: 400 invalidCaptchaException without a valid one; then ' +
        "404 emailNotFoundException ('Specified email not found') for an unknown e-mail; " +
        '429 tooManyRequestsException with Retry-After per client address across e-mails and per e-mail',
      tags,
      body: recoveryRequestSchema,
      fieldCodes: { [M.captchaRequired]: 'invalidCaptchaException' },
    },
    async ({ body, req }) => S.requestRecovery(app, body, req.ip),
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/auth/recovery/:token',
      access: 'public',
      response: z.object({ valid: z.literal(true) }),
      summary: 'Whether a recovery link is still valid',
      tags,
      params: recoveryCheckSchema,
    },
    async ({ params }) => S.checkRecovery(app, params.token),
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/auth/recovery/reset',
      access: 'public',
      response: z.object({ reset: z.literal(true) }),
      summary: 'Set a new password with a recovery link',
      tags,
      body: recoveryResetSchema,
    },
    async ({ body }) => S.resetPassword(app, body.token, body.password),
  );
};

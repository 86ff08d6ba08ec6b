import {
  captchaChallengeDto,
  FIELD_MESSAGES as M,
  signupCodeSchema,
  signupStartSchema,
  signupStateDto,
  signupTokenParams,
} from '@smartconnect/contracts';
import { definePublicRoute, type ModuleRoutes } from '../../http/route.ts';
import * as S from './service.ts';

const tags = ['signup'];
const bodyLimit = 16 * 1024;

/** Self-service sign-up (§2.5): captcha, e-mail code, SMS code, then a trial organisation with its administrator. */
export const signupRoutes: ModuleRoutes = (fastify, app) => {
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/signup/challenge',
      access: 'public',
      response: captchaChallengeDto,
      summary: 'A proof-of-work captcha challenge (ALTCHA): signed, valid 10 minutes, its solution good once',
      tags,
    },
    async ({ reply }) => {
      reply.header('cache-control', 'no-store');
      return S.challenge(app);
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/signup',
      access: 'public',
      response: signupStateDto,
      summary:
        'Start a sign-up: company, e-mail, phone, consent and the solved captcha; the e-mail code is sent. ' +
        '400 invalidCaptchaException / invalidPhoneException, 409 emailAlreadyExistsException, 429 tooManyRegistrationRequestsException',
      tags,
      body: signupStartSchema,
      bodyLimit,
      fieldCodes: {
        [M.captchaRequired]: 'invalidCaptchaException',
        [M.phoneIncorrect]: 'invalidPhoneException',
      },
    },
    async ({ body, req }) => S.startSignup(app, body, req.ip),
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/signup/:token',
      access: 'public',
      response: signupStateDto,
      summary:
        'Where a sign-up stands (to resume it, e.g. /registration/phone-confirmation/{token}); 400 registrationException once expired',
      tags,
      params: signupTokenParams,
    },
    async ({ params }) => S.signupState(app, params.token),
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/signup/:token/email-code',
      access: 'public',
      response: signupStateDto,
      summary:
        'The e-mail code (6 digits, 10 minutes, 5 tries): the SMS code is sent. 400 invalidEmailCodeException, 409 wrongStageException',
      tags,
      params: signupTokenParams,
      body: signupCodeSchema,
      bodyLimit,
    },
    async ({ params, body }) => S.confirmEmail(app, params.token, body.code),
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/signup/:token/phone-code',
      access: 'public',
      response: signupStateDto,
      summary:
        'The SMS code: creates the organisation on a 7-day trial and its administrator, and returns their session. ' +
        '400 invalidPhoneCodeException, 409 wrongStageException',
      tags,
      params: signupTokenParams,
      body: signupCodeSchema,
      bodyLimit,
    },
    async ({ params, body }) => S.confirmPhone(app, params.token, body.code),
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/signup/:token/resend',
      access: 'public',
      response: signupStateDto,
      summary:
        'A new code for the current stage: once a minute, 5 per stage (429 tooManyRegistrationRequestsException)',
      tags,
      params: signupTokenParams,
      bodyLimit,
    },
    async ({ params }) => S.resendCode(app, params.token),
  );
};

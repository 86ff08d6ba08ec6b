import { type AppContext, stateSlot } from '../../context.ts';
import { altchaProvider, type CaptchaProvider } from '../signup/captcha.ts';

const PROVIDER = stateSlot('auth.captcha', (app) =>
  altchaProvider(`${app.config.secretKey}:captcha`, Number(app.config.env.CAPTCHA_MAX_NUMBER) || 50_000),
);

/**
 * The proof a recovery request and a throttled sign-in carry: the sign-up's ALTCHA captcha with the same key and
 * difficulty (CAPTCHA_MAX_NUMBER), so a challenge of GET /api/signup/challenge is solved once for any of them and
 * its solution, spent in the shared captcha_uses table, is good once across all three.
 */
export function authCaptcha(app: AppContext): CaptchaProvider {
  return app.state.of(app, PROVIDER);
}

import type { Mail } from '../../lib/mailer.ts';

type Lang = 'eng' | 'rus';

/** The e-mail with the first code (§2.5), in the language of the sign-up page. */
export function codeMail(lang: Lang, to: string, code: string): Mail {
  return lang === 'rus'
    ? {
        to,
        subject: 'SmartConnect: код подтверждения',
        text: `Ваш код подтверждения e-mail для регистрации в SmartConnect: ${code}\nКод действует 10 минут.`,
      }
    : {
        to,
        subject: 'SmartConnect: your confirmation code',
        text: `Your SmartConnect sign-up e-mail code: ${code}\nThe code works for 10 minutes.`,
      };
}

export const codeSms = (lang: Lang, code: string) =>
  lang === 'rus' ? `SmartConnect: код подтверждения ${code}` : `SmartConnect: your phone code ${code}`;

/** After the sign-up: where to sign in, until when the trial runs and how to set a password for later. */
export function welcomeMail(
  lang: Lang,
  s: { email: string; company: string },
  login: string,
  paidUntil: string,
  publicUrl: string,
): Mail {
  return lang === 'rus'
    ? {
        to: s.email,
        subject: `SmartConnect: организация «${s.company}» создана`,
        text:
          `Организация «${s.company}» (логин ${login}) создана, пробный период по ${paidUntil} включительно.\n` +
          `Чтобы входить в SmartConnect позже, задайте пароль: ${publicUrl}/restore`,
      }
    : {
        to: s.email,
        subject: `SmartConnect: ${s.company} is ready`,
        text:
          `Your organisation ${s.company} (login ${login}) is ready, on a trial up to and including ${paidUntil}.\n` +
          `To sign in to SmartConnect later, set a password: ${publicUrl}/restore`,
      };
}

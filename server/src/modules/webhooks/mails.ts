import type { Mail } from '../../lib/mailer.ts';

/** An endpoint turned off after a day of failed deliveries, to an administrator in the organisation's language. */
export function disabledMail(lang: 'eng' | 'rus', to: string, url: string, link: string): Mail {
  return lang === 'rus'
    ? {
        to,
        subject: `Вебхук отключён: ${url}`,
        text: `Доставки событий на ${url} не удавались сутки, и адрес отключён.\n\nПроверьте журнал доставок и включите адрес снова: ${link}`,
      }
    : {
        to,
        subject: `Webhook endpoint disabled: ${url}`,
        text: `Event deliveries to ${url} have failed for a day, so the endpoint was disabled.\n\nCheck its delivery log and enable it again: ${link}`,
      };
}

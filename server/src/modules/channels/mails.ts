import type { ChannelProblemKind } from '@smartconnect/contracts';
import type { Mail } from '../../lib/mailer.ts';

/** The organisation's language (organisations.language): its channels' mails are written in it. */
export type MailLang = 'eng' | 'rus';

const PROBLEM: Record<MailLang, Record<ChannelProblemKind, string>> = {
  eng: {
    token_refused: 'the provider refused the channel’s token',
    unreachable: 'the provider cannot be reached',
    webhook_failing: 'the provider’s webhook sends updates that cannot be read',
  },
  rus: {
    token_refused: 'провайдер отклонил токен канала',
    unreachable: 'провайдер недоступен',
    webhook_failing: 'вебхук провайдера присылает обновления, которые не удаётся прочитать',
  },
};

/** §8 'Problem detected!': a channel's problem, to its notification e-mail. */
export function problemMail(
  lang: MailLang,
  to: string,
  p: { channelName: string; kind: ChannelProblemKind; detail: string; link: string },
): Mail {
  const what = PROBLEM[lang][p.kind];
  const lines =
    lang === 'rus'
      ? [
          `У канала «${p.channelName}» проблема: ${what}.`,
          p.detail ? `Подробности: ${p.detail}` : '',
          `Проверьте канал: ${p.link}`,
        ]
      : [
          `The channel "${p.channelName}" has a problem: ${what}.`,
          p.detail ? `Details: ${p.detail}` : '',
          `Check the channel: ${p.link}`,
        ];
  return {
    to,
    subject: `Problem detected! ${p.channelName}: ${what}`,
    text: lines.filter(Boolean).join('\n\n'),
  };
}

export type MissedChat = {
  clientName: string;
  at: string;
  status: 'waiting' | 'in_progress' | 'closed';
  link: string;
};

const STATUS: Record<MailLang, Record<MissedChat['status'], string>> = {
  eng: { waiting: 'waiting', in_progress: 'in progress', closed: 'closed' },
  rus: { waiting: 'в очереди', in_progress: 'в работе', closed: 'закрыт' },
};

/**
 * The daily digest of a channel's missed chats: the chats whose client's last message of the day has no operator
 * reply, each with its time, state and link; `more` beyond the listed ones are counted only.
 */
export function digestMail(
  lang: MailLang,
  to: string,
  d: { channelName: string; day: string; chats: MissedChat[]; more: number; link: string },
): Mail {
  const count = d.chats.length + d.more;
  const rows = d.chats.map((c) => `- ${c.at} ${c.clientName} (${STATUS[lang][c.status]}): ${c.link}`);
  if (lang === 'rus')
    return {
      to,
      subject: `SmartConnect: пропущенные чаты канала «${d.channelName}» за ${d.day}: ${count}`,
      text: [
        `Чаты канала «${d.channelName}» за ${d.day}, в которых последнее сообщение клиента осталось без ответа оператора: ${count}.`,
        rows.join('\n'),
        d.more ? `И ещё ${d.more}: ${d.link}` : '',
      ]
        .filter(Boolean)
        .join('\n\n'),
    };
  return {
    to,
    subject: `SmartConnect: missed chats of ${d.channelName} on ${d.day}: ${count}`,
    text: [
      `Chats of the channel "${d.channelName}" on ${d.day} whose client's last message got no operator reply: ${count}.`,
      rows.join('\n'),
      d.more ? `And ${d.more} more: ${d.link}` : '',
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}

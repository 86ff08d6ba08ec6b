import { splitText } from '../telegram/send.ts';
import type { AdapterChannel, AdapterContext, OutboundMessage, SendResult } from '../types.ts';
import { callViber, VIBER_STATUS, type ViberAnswer } from './api.ts';
import { avatarOf } from './connect.ts';
import { trackingOf } from './parse.ts';

/** Viber's longest text message. */
export const VIBER_TEXT_LIMIT = 7000;
const RATE_LIMIT_WAIT_MS = 60_000;

/** Our buttons as a Viber keyboard (a postback replies with its payload, a link opens its URL). */
export function viberKeyboard(buttons: OutboundMessage['buttons']) {
  const rows = buttons.filter((row) => row.length);
  if (!rows.length) return undefined;
  return {
    Type: 'keyboard',
    DefaultHeight: false,
    Buttons: rows.flatMap((row) =>
      row.map((b) => ({
        Columns: Math.max(1, Math.floor(6 / row.length)),
        Rows: 1,
        Text: b.text,
        ...('payload' in b
          ? { ActionType: 'reply', ActionBody: b.payload }
          : { ActionType: 'open-url', ActionBody: b.url }),
      })),
    ),
  };
}

/**
 * §8's 'Viber registration session expired': Viber refuses a receiver who is not (or no longer) subscribed to the
 * bot, or not registered; the reason keeps Viber's code after the spec's text (the web translates the text).
 */
export const VIBER_SESSION_EXPIRED = 'Viber registration session expired';

function failure(a: Extract<ViberAnswer<unknown>, { ok: false }>): SendResult {
  const expired =
    a.status === VIBER_STATUS.receiverNotSubscribed || a.status === VIBER_STATUS.receiverNotRegistered;
  const error = expired
    ? `${VIBER_SESSION_EXPIRED} (${a.status}: ${a.message})`
    : `${a.status}: ${a.message}`;
  if (a.status === VIBER_STATUS.tooManyRequests || a.httpStatus === 429)
    return { ok: false, retryable: true, error, retryAfterMs: RATE_LIMIT_WAIT_MS };
  return { ok: false, retryable: a.status < 0 || a.httpStatus >= 500, error };
}

/**
 * Renders one of our messages as send_message calls: each attachment as picture (JPEG/PNG), video or file by its
 * public URL, then the text (split past 7000); the keyboard rides on the last call with the labels in
 * tracking_data. Viber cannot edit a sent message. The message_token of the first part is kept.
 */
export async function sendViberBot(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  if (m.event === 'message.updated')
    return { ok: false, retryable: false, error: 'Viber does not edit sent messages' };
  const keyboard = viberKeyboard(m.buttons);
  const labels: Record<string, string> = {};
  for (const row of m.buttons) for (const b of row) if ('payload' in b) labels[b.payload] = b.text;
  const calls: Record<string, unknown>[] = [];
  for (const a of m.attachments) {
    const url = a.url.startsWith('/') ? `${ctx.publicUrl}${a.url}` : a.url;
    const type = (a.contentType ?? '').split(';')[0]?.trim() ?? '';
    let size = a.size;
    if (size === undefined) size = (await ctx.readFile(channel.organisationId, a.url))?.data.length ?? 0;
    if (type === 'image/jpeg' || type === 'image/png') calls.push({ type: 'picture', media: url, text: '' });
    else if (type === 'video/mp4') calls.push({ type: 'video', media: url, size });
    else calls.push({ type: 'file', media: url, size, file_name: a.name ?? 'file' });
  }
  const text = m.text.trim() ? splitText(m.text, VIBER_TEXT_LIMIT) : [];
  // A short text rides on the first picture as its description.
  const first = calls[0];
  if (first?.type === 'picture' && text.length === 1 && (text[0]?.length ?? 0) <= 768)
    first.text = text.shift();
  for (const part of text) calls.push({ type: 'text', text: part });
  let token: string | undefined;
  try {
    for (const [i, call] of calls.entries()) {
      const last = i === calls.length - 1;
      const res = await callViber<{ message_token?: string }>(
        ctx,
        channel.secrets.token ?? '',
        'send_message',
        {
          receiver: m.client.externalId,
          min_api_version: 7,
          sender: {
            name: String(channel.settings.name ?? 'SmartConnect').slice(0, 28),
            ...(avatarOf(ctx, channel.settings) ? { avatar: avatarOf(ctx, channel.settings) } : {}),
          },
          ...call,
          ...(last && keyboard ? { keyboard, tracking_data: trackingOf(labels) } : {}),
        },
      );
      if (!res.ok) return failure(res);
      token ??= res.result.message_token !== undefined ? String(res.result.message_token) : undefined;
    }
    return { ok: true, externalId: token };
  } catch (err) {
    return { ok: false, retryable: true, error: (err as Error).message };
  }
}

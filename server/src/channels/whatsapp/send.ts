import { FormData } from 'undici';
import { splitText } from '../telegram/send.ts';
import type { AdapterChannel, AdapterContext, OutboundMessage, SendResult } from '../types.ts';
import { callGraph, type GraphAnswer, isRateLimit, retryable, WINDOW_CLOSED_CODE } from './cloud-api.ts';
import { interactiveOf, WHATSAPP_INTERACTIVE } from './interactive.ts';

/** The Cloud API's longest text body. */
export const WHATSAPP_TEXT_LIMIT = 4096;
/** Longest caption of a media message. */
const CAPTION_LIMIT = 1024;
/** How long to wait after a rate limit answer (the Cloud API names no Retry-After). */
const RATE_LIMIT_WAIT_MS = 60_000;

type Sent = { messages?: { id: string }[] };

/** The reason shown on an Undelivered message: code, then the provider's words. */
function failure(a: Extract<GraphAnswer<unknown>, { ok: false }>): SendResult {
  const error = `${a.code}: ${a.details ?? a.message}`;
  if (a.code === WINDOW_CLOSED_CODE)
    return { ok: false, retryable: false, error: `24-hour session ended (${error})` };
  if (isRateLimit(a)) return { ok: false, retryable: true, error, retryAfterMs: RATE_LIMIT_WAIT_MS };
  return { ok: false, retryable: retryable(a), error };
}

/** The kind of WhatsApp message an attachment goes as. */
function kindOf(contentType: string): 'image' | 'audio' | 'video' | 'document' | 'sticker' {
  if (contentType === 'image/webp') return 'sticker';
  if (contentType === 'image/jpeg' || contentType === 'image/png') return 'image';
  if (contentType.startsWith('audio/')) return 'audio';
  if (contentType === 'video/mp4' || contentType === 'video/3gpp') return 'video';
  return 'document';
}

/** Uploads one of our stored files (POST /{phone-number-id}/media); an attachment elsewhere goes by its link. */
async function mediaObject(
  ctx: AdapterContext,
  channel: AdapterChannel,
  a: OutboundMessage['attachments'][number],
): Promise<{ ok: true; kind: ReturnType<typeof kindOf>; obj: Record<string, string> } | SendResult> {
  const stored = await ctx.readFile(channel.organisationId, a.url);
  const type =
    (a.contentType ?? stored?.contentType ?? 'application/octet-stream').split(';')[0]?.trim() ?? '';
  const kind = kindOf(type);
  if (!stored) return { ok: true, kind, obj: { link: a.url } };
  const form = new FormData();
  form.set('messaging_product', 'whatsapp');
  form.set('type', type);
  form.set('file', new Blob([new Uint8Array(stored.data)], { type }), a.name ?? 'file');
  const up = await callGraph<{ id: string }>(
    ctx,
    channel.secrets.accessToken ?? '',
    'POST',
    `/${channel.settings.phoneNumberId}/media`,
    form,
  );
  if (!up.ok) return failure(up);
  return { ok: true, kind, obj: { id: up.result.id } };
}

/**
 * Renders one of our messages as Cloud API calls (POST /{phone-number-id}/messages): each attachment uploaded and
 * sent as image, document, audio, video or sticker (a short text rides as the first caption where the kind has
 * one), then the text (split past 4096). A sent message cannot be edited at WhatsApp: an edit is reported as such.
 * The wamid of the first part is kept; statuses name it.
 */
export async function sendWhatsApp(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  if (m.event === 'message.updated')
    return { ok: false, retryable: false, error: 'WhatsApp does not edit sent messages' };
  const token = channel.secrets.accessToken ?? '';
  const post = (body: Record<string, unknown>) =>
    callGraph<Sent>(ctx, token, 'POST', `/${channel.settings.phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: m.client.externalId,
      ...body,
    });
  try {
    if (m.template) {
      // A registered template (the only kind allowed after the 24-hour session): its body's values in order.
      const res = await post({
        type: 'template',
        template: {
          name: m.template.name,
          language: { code: m.template.languageCode },
          ...(m.template.variables.length
            ? {
                components: [
                  { type: 'body', parameters: m.template.variables.map((text) => ({ type: 'text', text })) },
                ],
              }
            : {}),
        },
      });
      if (!res.ok) return failure(res);
      return { ok: true, externalId: res.result.messages?.[0]?.id };
    }
    let first: string | undefined;
    // A bot's buttons: the text (with any links) goes last, as the body of an interactive message.
    const native = m.buttons.length ? interactiveOf(m.text, m.buttons) : null;
    let text = native ? native.body : m.text;
    const interactive = native?.interactive ?? null;
    for (const a of m.attachments) {
      const media = await mediaObject(ctx, channel, a);
      if (!media.ok) return media;
      if (!('kind' in media)) return media;
      const obj: Record<string, string> = { ...media.obj };
      if (media.kind === 'document') obj.filename = a.name ?? 'file';
      const captioned = media.kind === 'image' || media.kind === 'video' || media.kind === 'document';
      if (!interactive && captioned && text.trim() && text.length <= CAPTION_LIMIT) {
        obj.caption = text;
        text = '';
      }
      const res = await post({ type: media.kind, [media.kind]: obj });
      if (!res.ok) return failure(res);
      first ??= res.result.messages?.[0]?.id;
    }
    if (interactive) {
      // The body holds 1024 characters: what is longer goes before it as text.
      const parts = splitText(text, WHATSAPP_INTERACTIVE.bodyMax);
      const body = parts.pop() ?? '…';
      for (const part of parts) {
        const res = await post({ type: 'text', text: { body: part, preview_url: false } });
        if (!res.ok) return failure(res);
        first ??= res.result.messages?.[0]?.id;
      }
      const res = await post({
        type: 'interactive',
        interactive: { ...interactive, body: { text: body } },
      });
      if (!res.ok) return failure(res);
      first ??= res.result.messages?.[0]?.id;
      return { ok: true, externalId: first };
    }
    for (const part of text.trim() ? splitText(text, WHATSAPP_TEXT_LIMIT) : []) {
      const res = await post({ type: 'text', text: { body: part, preview_url: false } });
      if (!res.ok) return failure(res);
      first ??= res.result.messages?.[0]?.id;
    }
    return { ok: true, externalId: first };
  } catch (err) {
    return { ok: false, retryable: true, error: (err as Error).message };
  }
}

import { createHash } from 'node:crypto';
import { FormData } from 'undici';
import { splitText } from '../telegram/send.ts';
import type { AdapterChannel, AdapterContext, OutboundMessage, SendResult } from '../types.ts';
import { callVk, uploadVk, VK_ERROR, type VkAnswer } from './api.ts';
import { payloadOf } from './parse.ts';

/** VK's longest message text. */
export const VK_TEXT_LIMIT = 4096;
const RATE_LIMIT_WAIT_MS = 60_000;
/** A button label's longest text (VK: 40). */
const LABEL_MAX = 40;

/**
 * random_id of one messages.send call: derived from our message's id (and the part), so a retry of the same
 * message is the same call, which VK does not deliver twice.
 */
export const randomIdOf = (messageId: string, part: number) =>
  createHash('sha256').update(`${messageId}:${part}`).digest().readInt32BE(0) & 0x7fffffff;

/** Our buttons as an inline VK keyboard: a postback is a text button with our payload, a link opens its URL. */
export function vkKeyboard(buttons: OutboundMessage['buttons']) {
  const rows = buttons.filter((row) => row.length);
  if (!rows.length) return undefined;
  return {
    inline: true,
    buttons: rows.map((row) =>
      row.map((b) =>
        'payload' in b
          ? {
              action: { type: 'text', label: b.text.slice(0, LABEL_MAX), payload: payloadOf(b.payload) },
              color: 'secondary',
            }
          : { action: { type: 'open_link', label: b.text.slice(0, LABEL_MAX), link: b.url } },
      ),
    ),
  };
}

type Failure = Extract<VkAnswer<unknown>, { ok: false }>;
class VkFailure extends Error {
  constructor(readonly answer: Failure) {
    super(`${answer.code}: ${answer.message}`);
  }
}
const must = <T>(a: VkAnswer<T>): T => {
  if (!a.ok) throw new VkFailure(a);
  return a.result;
};

function failure(a: Failure): SendResult {
  const error = `${a.code}: ${a.message}`;
  if (
    a.code === VK_ERROR.tooManyPerSecond ||
    a.code === VK_ERROR.flood ||
    a.code === VK_ERROR.rateLimit ||
    a.httpStatus === 429
  )
    return { ok: false, retryable: true, error, retryAfterMs: RATE_LIMIT_WAIT_MS };
  if (a.code === VK_ERROR.authFailed) return { ok: false, retryable: false, error };
  // 10 (internal error) and upload servers' failures may pass; everything else VK will refuse again.
  return { ok: false, retryable: a.code < 0 || a.code === 10 || a.httpStatus >= 500, error };
}

/** One attachment uploaded through VK's upload servers: `photo{owner}_{id}` or `doc{owner}_{id}`. */
async function upload(
  ctx: AdapterContext,
  channel: AdapterChannel,
  peerId: string,
  a: OutboundMessage['attachments'][number],
): Promise<string> {
  const token = channel.secrets.token ?? '';
  let stored = await ctx.readFile(channel.organisationId, a.url);
  if (!stored) {
    const res = await ctx.outbound.fetch(a.url);
    if (res.status !== 200) throw new Error(`attachment HTTP ${res.status}`);
    stored = { data: res.body, contentType: a.contentType ?? 'application/octet-stream' };
  }
  const type = (a.contentType ?? stored.contentType).split(';')[0]?.trim() ?? '';
  const blob = new Blob([new Uint8Array(stored.data)], { type });
  if (['image/jpeg', 'image/png', 'image/gif'].includes(type)) {
    const server = must(
      await callVk<{ upload_url: string }>(ctx, token, 'photos.getMessagesUploadServer', { peer_id: peerId }),
    );
    const form = new FormData();
    form.set('photo', blob, a.name ?? 'photo.jpg');
    const up = must(
      await uploadVk<{ server: number; photo: string; hash: string }>(ctx, server.upload_url, form),
    );
    const [photo] = must(
      await callVk<{ id: number; owner_id: number }[]>(ctx, token, 'photos.saveMessagesPhoto', {
        photo: up.photo,
        server: up.server,
        hash: up.hash,
      }),
    );
    if (!photo) throw new Error('photos.saveMessagesPhoto answered nothing');
    return `photo${photo.owner_id}_${photo.id}`;
  }
  const server = must(
    await callVk<{ upload_url: string }>(ctx, token, 'docs.getMessagesUploadServer', {
      type: 'doc',
      peer_id: peerId,
    }),
  );
  const form = new FormData();
  form.set('file', blob, a.name ?? 'file');
  const up = must(await uploadVk<{ file: string }>(ctx, server.upload_url, form));
  const saved = must(
    await callVk<{ type: string; doc?: { id: number; owner_id: number } }>(ctx, token, 'docs.save', {
      file: up.file,
      title: a.name ?? 'file',
    }),
  );
  if (!saved.doc) throw new Error('docs.save answered no doc');
  return `doc${saved.doc.owner_id}_${saved.doc.id}`;
}

/**
 * Renders one of our messages as messages.send calls: the attachments uploaded through the upload servers ride
 * on the first call with the text (split past 4096); the keyboard on the last. Each call's random_id comes from
 * our message id, so a retried delivery is not shown twice. The id VK gave the first part is kept.
 */
export async function sendVkBot(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  if (m.event === 'message.updated')
    return { ok: false, retryable: false, error: 'VK messages are not edited from here' };
  const peerId = m.client.externalId;
  const token = channel.secrets.token ?? '';
  const keyboard = vkKeyboard(m.buttons);
  try {
    const attachment: string[] = [];
    for (const a of m.attachments) attachment.push(await upload(ctx, channel, peerId, a));
    const parts = m.text.trim() ? splitText(m.text, VK_TEXT_LIMIT) : [''];
    let first: string | undefined;
    for (const [i, text] of parts.entries()) {
      const last = i === parts.length - 1;
      const res = await callVk<number | { message_id?: number }[]>(ctx, token, 'messages.send', {
        peer_id: peerId,
        random_id: randomIdOf(m.id, i),
        message: text || undefined,
        attachment: i === 0 && attachment.length ? attachment.join(',') : undefined,
        keyboard: last && keyboard ? JSON.stringify(keyboard) : undefined,
      });
      if (!res.ok) return failure(res);
      const id = Array.isArray(res.result) ? res.result[0]?.message_id : res.result;
      first ??= id !== undefined ? String(id) : undefined;
    }
    return { ok: true, externalId: first };
  } catch (err) {
    if (err instanceof VkFailure) return failure(err.answer);
    return { ok: false, retryable: true, error: (err as Error).message };
  }
}

/**
 * An operator is writing: messages.setActivity `typing` (https://dev.vk.com/ru/method/messages.setActivity; VK shows
 * it for about 10 seconds or until our next message). Best effort: a refusal is thrown for the caller to log.
 */
export async function typingVk(
  ctx: AdapterContext,
  channel: AdapterChannel,
  client: { externalId: string },
): Promise<void> {
  const groupId = channel.settings.groupId;
  const res = await callVk<number>(ctx, channel.secrets.token ?? '', 'messages.setActivity', {
    peer_id: client.externalId,
    type: 'typing',
    group_id: typeof groupId === 'string' || typeof groupId === 'number' ? groupId : undefined,
  });
  if (!res.ok) throw new Error(`VK messages.setActivity: ${res.code} ${res.message}`);
}

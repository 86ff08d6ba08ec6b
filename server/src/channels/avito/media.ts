import { fetchPublicMedia } from '../download.ts';
import type { AdapterChannel, AdapterContext, MediaDownload, MediaRef } from '../types.ts';
import { MediaError } from '../types.ts';
import { callAvito, credsOf } from './api.ts';
import { AVITO_VOICE_REF } from './parse.ts';

/**
 * An Avito file: images are public links (content.image.sizes); a voice message's link is asked for now
 * (getVoiceFiles, docs/providers/avito.md "Other message-related methods": each link lives an hour, so it is never
 * stored), then fetched as any public file.
 */
export async function fetchAvitoMedia(
  ctx: AdapterContext,
  channel: AdapterChannel,
  ref: MediaRef,
): Promise<MediaDownload> {
  if (!ref.ref.startsWith(AVITO_VOICE_REF)) return fetchPublicMedia(ctx, channel, ref);
  const voiceId = ref.ref.slice(AVITO_VOICE_REF.length);
  const got = await callAvito<{ voices_urls?: Record<string, unknown> }>(
    ctx,
    channel.id,
    credsOf(channel),
    `/messenger/v1/accounts/${channel.settings.userId}/getVoiceFiles?voice_ids=${encodeURIComponent(voiceId)}`,
  ).catch((err: Error) => {
    throw new MediaError(err.message, true);
  });
  if (!got.ok) throw new MediaError(got.message, got.retryable);
  const url = got.result.voices_urls?.[voiceId];
  if (typeof url !== 'string' || !/^https?:\/\//.test(url))
    throw new MediaError('no link to the voice file', false);
  return fetchPublicMedia(ctx, channel, { ...ref, ref: url });
}

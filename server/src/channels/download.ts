import type { OutboundStream } from '../lib/outbound.ts';
import { type AdapterContext, MediaError } from './types.ts';

/**
 * GETs a provider's file as a stream (adapters' fetchMedia): an unreachable provider or a 429/5xx answer may give it
 * later (a retryable MediaError), any other answer than 200 never will. The body is left unread for ingest.
 */
export async function downloadMedia(
  ctx: AdapterContext,
  url: string,
  headers?: Record<string, string>,
): Promise<OutboundStream> {
  const res = await ctx.outbound.stream(url, { headers }).catch((err) => {
    throw new MediaError((err as Error).message, true);
  });
  if (res.status !== 200) {
    res.body.destroy();
    throw new MediaError(`HTTP ${res.status}`, res.status === 429 || res.status >= 500);
  }
  return res;
}

/** A Content-Type header's media type without its parameters, when it names one. */
export const mediaType = (header: string | null | undefined) => header?.split(';')[0]?.trim() || undefined;

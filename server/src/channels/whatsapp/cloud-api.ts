import type { FormData } from 'undici';
import { type GraphAnswer, graphBase, graphCall } from '../meta/graph.ts';
import type { AdapterContext } from '../types.ts';

export { type GraphAnswer, isRateLimit, retryable } from '../meta/graph.ts';

/** Outside the 24-hour customer service window (131047 'Re-engagement message'). */
export const WINDOW_CLOSED_CODE = 131047;

/** One Cloud API call with the channel's access token, at WHATSAPP_API_BASE_URL (tests point it at a fake). */
export const callGraph = <T>(
  ctx: AdapterContext,
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: Record<string, unknown> | FormData,
): Promise<GraphAnswer<T>> =>
  graphCall<T>(ctx, graphBase(ctx, 'WHATSAPP_API_BASE_URL'), token, method, path, body);

/**
 * The phone number's messaging limit tier (Cloud API `messaging_limit_tier`): how many different clients the
 * business may start conversations with in a rolling 24 hours. TIER_UNLIMITED and an unknown answer: null.
 */
const TIERS: Record<string, number> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1_000,
  TIER_2K: 2_000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
};
export async function messagingLimit(
  ctx: AdapterContext,
  token: string,
  phoneNumberId: string,
): Promise<number | null> {
  const res = await callGraph<{ messaging_limit_tier?: string }>(
    ctx,
    token,
    'GET',
    `/${phoneNumberId}?fields=messaging_limit_tier`,
  );
  if (!res.ok) throw new Error(`messaging limit not read: ${res.message}`);
  return TIERS[res.result.messaging_limit_tier ?? ''] ?? null;
}

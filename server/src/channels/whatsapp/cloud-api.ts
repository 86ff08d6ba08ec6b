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

import { inboundMessageSchema } from '@smartconnect/contracts';
import { validationError } from '../../http/errors.ts';
import type { InboundMessage } from '../types.ts';

/** The API channel's payload is already our shape; only validation is left. */
export function normalizeInbound(body: unknown): InboundMessage {
  const res = inboundMessageSchema.safeParse(body ?? {});
  if (!res.success) throw validationError(res.error);
  return res.data;
}

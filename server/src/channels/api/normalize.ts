import { inboundMessageSchema, sanitizeStrings } from '@smartconnect/contracts';
import { validationError } from '../../http/errors.ts';
import type { InboundMessage } from '../types.ts';

/**
 * The API channel's payload is already our shape; only validation is left. Its strings are cleaned before
 * (contracts/text.ts: NUL dropped, lone surrogates replaced), so a customer's text is stored rather than refused,
 * and the required-field checks see what will be stored.
 */
export function normalizeInbound(body: unknown): InboundMessage {
  const res = inboundMessageSchema.safeParse(sanitizeStrings(body ?? {}));
  if (!res.success) throw validationError(res.error);
  return res.data;
}

import { deliveryStatusSchema, inboundMessageSchema, sanitizeStrings } from '@smartconnect/contracts';
import { validationError } from '../../http/errors.ts';
import type { InboundEvent, RawRequest } from '../types.ts';

/**
 * The API channel's payloads are already our shapes; only validation is left. A push to `/inbound` is one
 * customer message; a push to `/status` reports on one of our messages. Strings are cleaned first
 * (contracts/text.ts: NUL dropped, lone surrogates replaced), so a customer's text is stored rather than refused,
 * and the required-field checks see what will be stored.
 */
export function parseApi(req: RawRequest): InboundEvent[] {
  const body = sanitizeStrings(req.body ?? {});
  if (req.endpoint === 'status') {
    const res = deliveryStatusSchema.safeParse(body);
    if (!res.success) throw validationError(res.error);
    return [{ kind: 'status', messageId: res.data.messageId, status: res.data.status }];
  }
  const res = inboundMessageSchema.safeParse(body);
  if (!res.success) throw validationError(res.error);
  return [{ kind: 'message', message: res.data }];
}

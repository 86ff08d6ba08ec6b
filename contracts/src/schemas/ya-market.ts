import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/**
 * A Yandex Market seller cabinet's buyer chats through the Partner API (issue 35; docs/providers/yandex-market.md):
 * an Api-Key token and the cabinet's business id, checked with the provider when saved.
 */
export const yaMarketCreateFields = z.object({
  apiKey: z.string(M.tokenIncorrect).trim().min(1, M.tokenIncorrect).max(512, M.tokenIncorrect),
  businessId: z
    .string(M.tokenIncorrect)
    .trim()
    .regex(/^\d{1,20}$/, M.tokenIncorrect),
});

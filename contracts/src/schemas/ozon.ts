import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/**
 * An Ozon seller's chats through the Seller API (issue 35; docs/providers/ozon.md): the seller's Client-Id and an
 * Api-Key (seller cabinet -> Settings -> API keys), checked with the provider when saved.
 */
export const ozonCreateFields = z.object({
  clientId: z
    .string(M.tokenIncorrect)
    .trim()
    .regex(/^\d{1,20}$/, M.tokenIncorrect),
  apiKey: z.string(M.tokenIncorrect).trim().min(1, M.tokenIncorrect).max(255, M.tokenIncorrect),
});

import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/**
 * Apple Messages for Business through a messaging service provider connection (issue 35,
 * docs/providers/apple-business.md): the business id Apple registered (the destination of every customer message),
 * the MSP id (the JWT's issuer and audience) and the MSP's API secret (Base64, the JWT's key), checked when saved.
 */
export const appleBusinessCreateFields = z.object({
  businessId: z.string(M.tokenIncorrect).trim().min(1, M.tokenIncorrect).max(255, M.tokenIncorrect),
  mspId: z.string(M.tokenIncorrect).trim().min(1, M.tokenIncorrect).max(255, M.tokenIncorrect),
  secret: z
    .string(M.tokenIncorrect)
    .trim()
    .min(1, M.tokenIncorrect)
    .max(1024, M.tokenIncorrect)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, M.tokenIncorrect),
});

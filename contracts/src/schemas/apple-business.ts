import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/**
 * Apple Messages for Business through a messaging service provider connection (issue 35): the business id Apple
 * registered and the MSP's API secret (base64), checked when saved.
 */
export const appleBusinessCreateFields = z.object({
  businessId: z.string(M.tokenIncorrect).trim().min(1, M.tokenIncorrect).max(255, M.tokenIncorrect),
  mspId: z.string(M.tokenIncorrect).trim().min(1, M.tokenIncorrect).max(255, M.tokenIncorrect),
  secret: z.string(M.tokenIncorrect).trim().min(1, M.tokenIncorrect).max(1024, M.tokenIncorrect),
});

import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/**
 * An Avito account through the Messenger API (issue 35; docs/providers/avito.md): the main account's client_id and
 * client_secret (Avito cabinet -> API), checked by taking a token (client credentials) when saved.
 */
export const avitoCreateFields = z.object({
  clientId: z.string(M.tokenIncorrect).trim().min(1, M.tokenIncorrect).max(255, M.tokenIncorrect),
  clientSecret: z.string(M.tokenIncorrect).trim().min(1, M.tokenIncorrect).max(255, M.tokenIncorrect),
});

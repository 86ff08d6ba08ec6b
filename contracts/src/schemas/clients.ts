import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/** A minimal client profile; the CRM issue extends it. */
export type ClientDto = {
  id: string;
  name: string;
  personalManagerId: string | null;
  contacts: { channelId: string; externalId: string; name: string }[];
};

export const clientUpdateSchema = z.object({
  name: z.string(M.nameIncorrect).trim().min(1, M.nameIncorrect).max(255, M.nameIncorrect).optional(),
  personalManagerId: z.uuid(M.valueIncorrect).nullable().optional(),
});

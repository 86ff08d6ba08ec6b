import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/** A minimal client profile; the CRM issue extends it. */
export type ClientDto = {
  id: string;
  name: string;
  personalManagerId: string | null;
  /** Where the client writes from: the channel's id of them, their name there, and their handle (e.g. a Telegram @username). */
  contacts: { channelId: string; externalId: string; name: string; username: string | null }[];
};

export const clientUpdateSchema = z.object({
  name: z.string(M.nameIncorrect).trim().min(1, M.nameIncorrect).max(255, M.nameIncorrect).optional(),
  personalManagerId: z.uuid(M.valueIncorrect).nullable().optional(),
});

/** A client found by extended search, with their latest chat the caller may see. */
export type ClientHitDto = {
  id: string;
  name: string;
  contacts: { channelId: string; channelName: string; externalId: string; username: string | null }[];
  lastChat: { id: string; status: 'waiting' | 'in_progress' | 'closed' } | null;
};

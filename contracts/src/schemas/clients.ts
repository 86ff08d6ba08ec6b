import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/** A minimal client profile; the CRM issue extends it. */
export type ClientDto = {
  id: string;
  name: string;
  personalManagerId: string | null;
  /**
   * Where the client writes from: the channel's id of them, their name there, their handle (e.g. a Telegram
   * @username), and the e-mail and phone they gave there (the site chat's introduction form).
   */
  contacts: {
    channelId: string;
    externalId: string;
    name: string;
    username: string | null;
    email: string | null;
    phone: string | null;
  }[];
};

export const clientUpdateSchema = z.object({
  // §5 "Profile name: not empty, at most 32" (DECISIONS.md: the client profile's name).
  name: z.string(M.nameIncorrect).trim().min(1, M.nameIncorrect).max(32, M.nameIncorrect).optional(),
  personalManagerId: z.uuid(M.valueIncorrect).nullable().optional(),
});

/** A client found by extended search, with their latest chat the caller may see. */
export type ClientHitDto = {
  id: string;
  name: string;
  contacts: { channelId: string; channelName: string; externalId: string; username: string | null }[];
  lastChat: { id: string; status: 'waiting' | 'in_progress' | 'closed' } | null;
};

/** A file of the client's dialogs (side panel 'Attached files'): the attachment and the message it came with. */
export type ClientFileDto = {
  messageId: string;
  chatId: string;
  direction: 'in' | 'out';
  createdAt: string;
  url: string;
  name: string | null;
  contentType: string | null;
  size: number | null;
};

/** `GET /api/clients?q=`: clients to start a dialog with (create-chat page). */
export const clientLookupQuerySchema = z.object({
  q: z.string(M.requiredFields).trim().min(1, M.requiredFields).max(100, M.incorrectValue),
});

/** A client to start a dialog with, and their channels (`startDialog`: the channel's type lets an operator write first). */
export type ClientLookupDto = {
  id: string;
  name: string;
  contacts: {
    channelId: string;
    channelName: string;
    externalId: string;
    username: string | null;
    startDialog: boolean;
  }[];
};

import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { PRESENCE, type Presence } from './users.ts';

export const presenceUpdateSchema = z.object({ status: z.enum(PRESENCE, M.valueIncorrect) });

export const PRESENCE_REASONS = ['manual', 'auto_break', 'disconnect'] as const;
export type PresenceReason = (typeof PRESENCE_REASONS)[number];

/** Payload of `presence.changed` and answer of `PATCH /api/presence`. */
export type PresenceDto = { userId: string; status: Presence; reason: PresenceReason; changedAt: string };

import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/** §3 Auto-replies of a channel: when operators are online, when offline, the dialog rating request, holding. */
export const AUTO_REPLY_KINDS = ['online', 'offline', 'rating', 'holding'] as const;
export type AutoReplyKind = (typeof AUTO_REPLY_KINDS)[number];
/** §9 'Holding phrase wait: 1, 2 or 5 minutes'. */
export const HOLDING_WAIT_MINUTES = [1, 2, 5] as const;
export type HoldingWaitMinutes = (typeof HOLDING_WAIT_MINUTES)[number];
/** An auto-reply's text: at most this many characters (the channel's rating text has the same limit). */
export const AUTO_REPLY_TEXT_MAX = 1000;

const text = z.string(M.valueIncorrect).trim().max(AUTO_REPLY_TEXT_MAX, M.valueIncorrect).default('');

/** A switched-on reply needs its text ('Please fill in all required fields' under the text). */
const requireTextWhenOn = (v: { enabled: boolean; text: string }, ctx: z.RefinementCtx) => {
  if (v.enabled && !v.text) ctx.addIssue({ code: 'custom', path: ['text'], message: M.requiredFields });
};

const reply = z
  .object({ enabled: z.boolean(M.valueIncorrect), text }, M.valueIncorrect)
  .superRefine(requireTextWhenOn);

const holdingWait = z.union(
  HOLDING_WAIT_MINUTES.map((m) => z.literal(m, M.timeIncorrect)),
  M.timeIncorrect,
);

const holding = z
  .object({ enabled: z.boolean(M.valueIncorrect), text, waitMinutes: holdingWait }, M.valueIncorrect)
  .superRefine(requireTextWhenOn);

/** `PUT /api/channels/{id}/auto-replies`: all four replies at once. */
export const autoRepliesSchema = z.object({
  online: reply,
  offline: reply,
  rating: reply,
  holding,
});
export type AutoRepliesInput = z.input<typeof autoRepliesSchema>;

const replyDto = z.object({ enabled: z.boolean(), text: z.string() });
/** A channel's auto-replies as the API answers them (all off with empty texts until first saved). */
export const autoRepliesDto = z.object({
  channelId: z.uuid(),
  online: replyDto,
  offline: replyDto,
  rating: replyDto,
  holding: replyDto.extend({ waitMinutes: z.union(HOLDING_WAIT_MINUTES.map((m) => z.literal(m))) }),
});
export type AutoRepliesDto = z.output<typeof autoRepliesDto>;

import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/** Quality assessment values (§3), scale 1 to 5. */
export const RATING_VALUES = ['VERY_BAD', 'BAD', 'NORMAL', 'GOOD', 'EXCELLENT'] as const;
export type RatingValue = (typeof RATING_VALUES)[number];
export const ratingValueOf = (score: number): RatingValue => RATING_VALUES[score - 1];

/** How long a rating link works. */
export const RATING_LINK_DAYS = 30;

export const ratingScoreSchema = z
  .number(M.valueIncorrect)
  .int(M.valueIncorrect)
  .min(1, M.valueIncorrect)
  .max(5, M.valueIncorrect);

/** `POST /api/link-actions/{uuid}`: the client's choice on the rating page. */
export const linkActionBodySchema = z.object({ score: ratingScoreSchema });

/** What the rating page needs to know about its link. */
export const linkActionDto = z.object({
  uuid: z.uuid(),
  used: z.boolean(),
  score: ratingScoreSchema.nullable(),
  value: z.enum(RATING_VALUES).nullable(),
});
export type LinkActionDto = z.output<typeof linkActionDto>;

/** A chat session's rating, as the chat shows it. */
export const chatRatingDto = z.object({
  score: ratingScoreSchema.nullable(),
  value: z.enum(RATING_VALUES).nullable(),
  requestedAt: z.string(),
  ratedAt: z.string().nullable(),
  sessionNo: z.number().int(),
});
export type ChatRatingDto = z.output<typeof chatRatingDto>;

/** `GET|POST /api/chats/{id}/rating-request`: the current session's rating as the chat's top bar shows it. */
export const chatRatingStateDto = z.object({
  canAsk: z
    .boolean()
    .describe(
      "The operator may ask now: the channel allows a request before the end, and this session wasn't asked",
    ),
  requestedAt: z.string().nullable(),
  score: ratingScoreSchema.nullable(),
  value: z.enum(RATING_VALUES).nullable(),
});
export type ChatRatingStateDto = z.output<typeof chatRatingStateDto>;

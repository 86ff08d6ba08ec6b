import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { FIELD_MESSAGES as M } from '../messages.ts';

export const DISTRIBUTION_METHODS = ['round_robin', 'least_loaded', 'manual'] as const;
export type DistributionMethod = (typeof DISTRIBUTION_METHODS)[number];

const int = (min: number, max: number, message: string) =>
  z.number(message).int(message).min(min, message).max(max, message);

const teamFields = {
  name: z.string(M.nameIncorrect).trim().min(1, M.nameIncorrect).max(LIMITS.teamNameMax, M.nameIncorrect),
  description: z
    .string(M.descriptionIncorrect)
    .trim()
    .min(1, M.descriptionIncorrect)
    .max(LIMITS.teamDescriptionMax, M.descriptionIncorrect),
  distributionMethod: z.enum(DISTRIBUTION_METHODS, M.distributionIncorrect),
  dialogLimit: int(LIMITS.dialogLimitMin, LIMITS.dialogLimitMax, M.quantityIncorrect),
  /** Minutes; null switches redistribution off. */
  autoRedistributionMinutes: int(
    LIMITS.autoRedistributionMin,
    LIMITS.autoRedistributionMax,
    M.timeIncorrect,
  ).nullable(),
  /** Minutes; null is "None". */
  autoCloseMinutes: int(LIMITS.autoCloseMin, LIMITS.autoCloseMax, M.timeIncorrect).nullable(),
  /** Hours of client silence; 0 is off, otherwise more than 23. */
  inactivityHours: z
    .number(M.timeSetIncorrectly)
    .int(M.timeSetIncorrectly)
    .max(LIMITS.inactivityMax, M.timeSetIncorrectly)
    .refine((v) => v === 0 || v >= LIMITS.inactivityMinWhenOn, M.timeSetIncorrectly),
  memberIds: z.array(z.uuid(M.valueIncorrect), M.valueIncorrect),
};

export const teamCreateSchema = z.object({
  ...teamFields,
  distributionMethod: teamFields.distributionMethod.default('round_robin'),
  dialogLimit: teamFields.dialogLimit.default(5),
  autoRedistributionMinutes: teamFields.autoRedistributionMinutes.default(null),
  autoCloseMinutes: teamFields.autoCloseMinutes.default(null),
  inactivityHours: teamFields.inactivityHours.default(0),
  memberIds: teamFields.memberIds.default([]),
});
export const teamUpdateSchema = z.object(teamFields).partial();
export const teamListQuerySchema = z.object({ search: z.string().trim().max(255).optional() });

export type TeamDto = {
  id: string;
  name: string;
  description: string;
  distributionMethod: DistributionMethod;
  dialogLimit: number;
  autoRedistributionMinutes: number | null;
  autoCloseMinutes: number | null;
  inactivityHours: number;
  memberCount: number;
  members: { id: string; name: string }[];
  createdAt: string;
};

import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { ASSIGNABLE_RIGHTS, type Right } from '../rights.ts';

const roleFields = {
  name: z.string(M.nameIncorrect).trim().min(1, M.nameIncorrect).max(LIMITS.roleNameMax, M.nameIncorrect),
  description: z
    .string(M.descriptionIncorrect)
    .trim()
    .min(1, M.descriptionIncorrect)
    .max(LIMITS.roleDescriptionMax, M.descriptionIncorrect),
  rights: z.array(z.enum(ASSIGNABLE_RIGHTS as [Right, ...Right[]], M.rightsIncorrect), M.rightsIncorrect),
};
export const roleCreateSchema = z.object(roleFields);
export const roleUpdateSchema = z.object(roleFields).partial();

export type RoleDto = {
  id: string;
  name: string;
  description: string;
  rights: Right[];
  builtIn: string | null;
  userCount: number;
};

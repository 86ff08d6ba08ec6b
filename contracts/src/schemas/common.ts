import { z } from 'zod';

export const idParams = z.object({ id: z.uuid('Not found') });
export type Page<T> = { items: T[]; total: number };

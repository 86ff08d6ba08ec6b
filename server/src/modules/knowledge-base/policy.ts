import type { AuthContext } from '../../http/auth.ts';
import { managesTemplates } from '../templates/policy.ts';

/** Those who write templates (AUTHORITY_TEAM_TEMPLATE, §6) write the knowledge base and read all of it. */
export const managesKnowledgeBase = (auth: AuthContext): boolean => managesTemplates(auth);

/** Whose teams scope what the caller reads: nobody's for those who write the knowledge base, else their own. */
export const readScope = (auth: AuthContext): string | null =>
  managesKnowledgeBase(auth) ? null : auth.userId;

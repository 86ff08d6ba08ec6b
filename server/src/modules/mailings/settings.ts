import { DEFAULT_OPT_OUT_WORDS, type MailingSettingsDto } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { organisationsNeeding, setAutomationNeed } from '../organisations/automation.ts';
import * as Q from './queries.ts';

/** A client's message within this long of a mailing sent to them answers that mailing. */
export const MAILING_REPLY_WINDOW_MS = 7 * 24 * 3_600_000;

/** The words compared: letters and digits only, in upper case ("Stop!" and " stop " are STOP). */
export const normalWord = (s: string) =>
  s
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLocaleUpperCase('ru');

/** The organisation's opt-out words in force, compared form. */
export async function optOutWords(q: Queryable, orgId: string): Promise<Set<string>> {
  return new Set(((await Q.optOutWordsOf(q, orgId)) ?? DEFAULT_OPT_OUT_WORDS).map(normalWord));
}

export async function getMailingSettings(app: AppContext, auth: AuthContext): Promise<MailingSettingsDto> {
  const own = await Q.optOutWordsOf(app.db, auth.organisationId);
  return { optOutWords: own ?? [...DEFAULT_OPT_OUT_WORDS], custom: own !== null };
}

export async function setMailingSettings(app: AppContext, auth: AuthContext, words: string[] | null) {
  // One word once, as it was first written.
  const seen = new Set<string>();
  const unique = words?.filter((w) => {
    const k = normalWord(w);
    if (!k || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  await Q.setOptOutWords(app.db, auth.organisationId, unique?.length ? unique : null, app.clock.now());
  return getMailingSettings(app, auth);
}

/**
 * A started mailing's replies must be seen also in dialogs that are already open (an opt-out word answered there):
 * every client message of the organisation passes the pipeline while one of its mailings may be answered.
 */
export const needRepliesSeen = (q: Queryable, orgId: string) => setAutomationNeed(q, orgId, 'mailings', true);

/** A periodic task: organisations whose mailings can no longer be answered stop sending every message through. */
export async function releaseRepliesSeen(app: AppContext): Promise<void> {
  const orgs = await organisationsNeeding(app.db, 'mailings');
  if (!orgs.length) return;
  const since = new Date(app.clock.now().getTime() - MAILING_REPLY_WINDOW_MS);
  const still = new Set(await Q.withAnswerableMailings(app.db, orgs, since));
  for (const org of orgs)
    if (!still.has(org)) await app.db.tx((q) => setAutomationNeed(q, org, 'mailings', false));
}

import {
  SMS_IMPORT_LIMITS,
  type SmsCallbackDto,
  type SmsCallbackEntry,
  type SmsImportRefusal,
  type SmsService,
  sanitizeStrings,
  smsCallbackSchema,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { withEvents } from '../../realtime/emit.ts';
import { recordProviderStatus } from '../conversation/delivery-status.ts';
import { readPhone, readStatus, readTime, type SmsItem, type SmsStatus, serviceId } from './formats.ts';
import * as Q from './queries.ts';
import { storeSms } from './store.ts';

/*
 * An SMS service's callbacks to an `sms` channel: SMS.ru's status reports (`data[]` entries), SMSC.ru's status
 * handler (form fields id, phone, status, err, ts; with the message text in `mes` when the account sends it), or our
 * JSON for any other service. An SMS with its text is stored as the file import stores it (idempotent by its id); a
 * status of a stored SMS moves its delivery status forward; a status of an SMS we never got is counted as unknown
 * and acknowledged (the service does not retry a status; the export file brings the SMS later).
 */

/** One entry of a callback, in our words. */
type Entry =
  | { kind: 'sms'; item: SmsItem }
  | { kind: 'status'; externalId: string; status: SmsStatus; reason: string | null }
  | { kind: 'refused'; index: number; reason: SmsImportRefusal };

/** SMS.ru's report entries: `data[]` (read as `data`) or `data[N]`. */
export const isSmsRuData = (key: string) => /^data(\[\d*\])?$/.test(key);

/** A form body or query as a record of strings (repeated names and `data[]` as arrays). */
export type FormFields = Record<string, string | string[]>;

/** SMS.ru: `data[N]` = "sms_status\n<sms_id>\n<status code>\n<unix time>" (other first lines are not ours). */
function smsRuEntries(fields: FormFields): Entry[] {
  const raw = Object.entries(fields)
    .filter(([k]) => isSmsRuData(k))
    .flatMap(([, v]) => (Array.isArray(v) ? v : [v]));
  return raw.flatMap((d): Entry[] => {
    const [kind, id, code] = d.split('\n').map((s) => s.trim());
    if (kind !== 'sms_status' || !id || !code || id.length > 200) return [];
    const { status, reason } = readStatus(code, 'smsru');
    return [{ kind: 'status', externalId: id, status, reason }];
  });
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

/** SMSC.ru's status handler: one SMS per request; with `mes` (its text) it can be stored, else only its status. */
function smscEntries(fields: FormFields, timeZone: string, now: Date): Entry[] {
  const id = one(fields.id).trim();
  const phone = readPhone(one(fields.phone));
  if (!id || !phone) return [{ kind: 'refused', index: 0, reason: phone ? 'message_id' : 'phone' }];
  const externalId = serviceId('smsc', id, phone);
  const { status, reason } = readStatus(one(fields.status), 'smsc');
  const failure = one(fields.err).trim()
    ? `${reason ?? one(fields.status)} (${one(fields.err).trim()})`
    : reason;
  const text = one(fields.mes).trim();
  if (!text) return [{ kind: 'status', externalId, status, reason: failure }];
  const ts = one(fields.ts) || one(fields.time);
  return [
    {
      kind: 'sms',
      item: {
        phone,
        text: text.slice(0, SMS_IMPORT_LIMITS.textMax),
        sentAt: readTime(ts, timeZone) ?? now,
        status,
        reason: failure,
        externalId,
      },
    },
  ];
}

/** Our JSON: each entry an SMS (with phone and text) or a status of one (id and status only). */
function jsonEntries(entries: SmsCallbackEntry[], service: SmsService, now: Date): Entry[] {
  return entries.map((e, index): Entry => {
    const { status, reason } = readStatus(e.status ?? '', service);
    if (e.text === undefined && e.phone === undefined)
      return { kind: 'status', externalId: e.id, status, reason };
    const phone = readPhone(e.phone ?? '');
    if (!phone) return { kind: 'refused', index, reason: 'phone' };
    const text = (e.text ?? '').trim();
    if (!text) return { kind: 'refused', index, reason: 'text' };
    return {
      kind: 'sms',
      item: {
        phone,
        text,
        sentAt: e.sentAt ? new Date(e.sentAt) : now,
        status,
        reason,
        externalId: serviceId(service, e.id, phone),
      },
    };
  });
}

/** The callback's entries, by the shape of what the service sent. */
export function callbackEntries(
  input: { json: unknown; fields: FormFields },
  service: SmsService,
  timeZone: string,
  now: Date,
): Entry[] {
  if (input.json !== undefined) {
    const res = smsCallbackSchema.safeParse(input.json);
    if (!res.success) throw new AppError('validationException', { messages: 'Value specified incorrectly' });
    return jsonEntries('messages' in res.data ? res.data.messages : [res.data], service, now);
  }
  if (Object.keys(input.fields).some(isSmsRuData)) return smsRuEntries(input.fields);
  if (input.fields.id !== undefined) return smscEntries(input.fields, timeZone, now);
  return [];
}

/** Acts on a verified callback of the channel: SMS stored, statuses recorded; answers the counts. */
export async function receiveCallback(
  app: AppContext,
  channel: { id: string; organisation_id: string; team_id: string; settings: Record<string, unknown> },
  input: { json: unknown; fields: FormFields },
): Promise<SmsCallbackDto> {
  const service = (channel.settings.service as SmsService | undefined) ?? 'other';
  const now = app.clock.now();
  const timeZone = await Q.orgTimeZone(app.db, channel.organisation_id);
  // Provider text is stored, never refused for its characters: NUL dropped, lone surrogates replaced.
  const clean = { json: sanitizeStrings(input.json), fields: sanitizeStrings(input.fields) };
  const entries = callbackEntries(clean, service, timeZone, now).slice(0, SMS_IMPORT_LIMITS.callbackMax);
  const out: SmsCallbackDto = { imported: 0, duplicates: 0, statuses: 0, unknown: 0, refused: [] };
  const items = entries.flatMap((e) => (e.kind === 'sms' ? [e.item] : []));
  if (items.length)
    await withEvents(app, async (q, emit) => {
      const target = { orgId: channel.organisation_id, channelId: channel.id, teamId: channel.team_id };
      out.imported = await storeSms({ q, emit }, target, items, now);
      out.duplicates = items.length - out.imported;
    });
  for (const e of entries) {
    if (e.kind === 'refused') out.refused.push({ index: e.index, reason: e.reason });
    // 'On its way' moves no status: nothing to record.
    if (e.kind !== 'status' || e.status === 'sent') continue;
    const found = await recordProviderStatus(app, channel, {
      externalId: e.externalId,
      status: e.status,
      ...(e.reason ? { reason: e.reason } : {}),
    });
    if (found) out.statuses += 1;
    else out.unknown += 1;
  }
  return out;
}

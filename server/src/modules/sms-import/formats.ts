import { createHash } from 'node:crypto';
import {
  SMS_IMPORT_LIMITS,
  type SmsImportMapping,
  type SmsImportRefusal,
  type SmsService,
  toE164,
} from '@smartconnect/contracts';
import { offsetMs } from '../reports/period.ts';

/*
 * What an SMS service's export and callbacks say, in our words: which column is which, what a status means, when a
 * time is. Pure functions: the import and the callback route share them, the unit tests read them directly.
 */

/** A delivery status as messages keep it. */
export type SmsStatus = 'sent' | 'delivered' | 'read' | 'undelivered';

/** One SMS ready to store: the client's phone (E.164), what they were sent, when, its status and its id. */
export type SmsItem = {
  phone: string;
  text: string;
  sentAt: Date;
  status: SmsStatus;
  /** The service's words for a failed status (kept as the message's reason). */
  reason: string | null;
  externalId: string;
};

/** A header cell as compared: lower case, letters and digits only ("ID сообщения" = "id_сообщения"). */
export const headerKey = (s: string) =>
  s
    .normalize('NFKC')
    .toLocaleLowerCase('ru')
    .replaceAll('ё', 'е')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The header row's signature: the organisation's column choice is remembered by it. */
export const headerSignature = (header: string[]) =>
  createHash('sha256').update(header.map(headerKey).join('\u0001')).digest('hex');

type Profile = { format: 'smsru' | 'smsc'; headers: Record<keyof SmsImportMapping, string[]> };

/**
 * The export files of SMS.ru ("Отчёты → Выгрузка") and SMSC.ru ("История сообщений → Экспорт"), as their header
 * rows name the columns. A file whose header has every column of a profile is read without asking.
 */
const PROFILES: Profile[] = [
  {
    format: 'smsru',
    headers: {
      messageId: ['id сообщения', 'sms id', 'id'],
      phone: ['номер получателя', 'получатель', 'номер'],
      text: ['текст сообщения', 'текст'],
      sentAt: ['дата отправки', 'время отправки', 'дата'],
      status: ['статус доставки', 'статус'],
    },
  },
  {
    format: 'smsc',
    headers: {
      messageId: ['id', 'id сообщения'],
      phone: ['телефон', 'номер телефона'],
      text: ['сообщение', 'текст сообщения'],
      sentAt: ['дата и время', 'время отправки', 'дата отправки', 'время'],
      status: ['статус', 'состояние'],
    },
  },
];

/** Header words of other exports, tried column by column (a guess the user confirms). */
const SYNONYMS: Record<keyof SmsImportMapping, string[]> = {
  phone: [
    'phone',
    'phone number',
    'msisdn',
    'to',
    'recipient',
    'number',
    'телефон',
    'номер',
    'получатель',
    'абонент',
  ],
  text: ['text', 'message', 'message text', 'body', 'sms', 'mes', 'msg', 'текст', 'сообщение', 'содержание'],
  sentAt: [
    'sent',
    'sent at',
    'date',
    'time',
    'datetime',
    'send time',
    'created',
    'дата',
    'время',
    'отправлено',
  ],
  status: ['status', 'state', 'delivery status', 'статус', 'состояние'],
  messageId: ['id', 'message id', 'sms id', 'sms_id', 'messageid', 'идентификатор', 'id сообщения'],
};

const FIELDS = ['messageId', 'phone', 'text', 'sentAt', 'status'] as const;

/** The columns of a header: a recognised export's (all its columns found), or a guess (null where none fits). */
export function recognise(header: string[]): {
  detected: 'smsru' | 'smsc' | null;
  mapping: Partial<Record<keyof SmsImportMapping, number | null>>;
} {
  const keys = header.map(headerKey);
  for (const p of PROFILES) {
    const found: Partial<Record<keyof SmsImportMapping, number>> = {};
    for (const f of FIELDS) {
      const i = p.headers[f]
        .map((h) => keys.indexOf(h))
        .find((x) => x >= 0 && !Object.values(found).includes(x));
      if (i !== undefined) found[f] = i;
    }
    if (FIELDS.every((f) => found[f] !== undefined)) return { detected: p.format, mapping: found };
  }
  const guess: Partial<Record<keyof SmsImportMapping, number | null>> = {};
  const taken = new Set<number>();
  for (const f of FIELDS) {
    const exact = keys.findIndex((k, i) => !taken.has(i) && SYNONYMS[f].includes(k));
    const partial =
      exact >= 0
        ? exact
        : keys.findIndex((k, i) => !taken.has(i) && SYNONYMS[f].some((w) => k.startsWith(`${w} `)));
    guess[f] = partial >= 0 ? partial : null;
    if (partial >= 0) taken.add(partial);
  }
  return { detected: null, mapping: guess };
}

/** A guess or a remembered choice that names both needed columns, as a whole mapping. */
export function completeMapping(
  m: Partial<Record<keyof SmsImportMapping, number | null>>,
  columns: number,
): SmsImportMapping | null {
  const ok = (v: number | null | undefined) => v != null && v >= 0 && v < columns;
  if (!ok(m.phone) || !ok(m.text)) return null;
  const opt = (v: number | null | undefined) => (ok(v) ? (v as number) : null);
  return {
    phone: m.phone as number,
    text: m.text as number,
    sentAt: opt(m.sentAt),
    status: opt(m.status),
    messageId: opt(m.messageId),
  };
}

/*
 * Statuses. SMS.ru's codes (sms/status, callbacks): 100-102 on the way, 103 delivered, 104-108 and 150 not
 * delivered (expired, deleted by the operator, phone failure, unknown, refused, no route), 110 read (messengers).
 * SMSC.ru's: -1 and 0 on the way, 1 delivered, 2 read, 3 expired, 20 and above not delivered. Words (exports): any
 * service, Russian or English.
 */
const SMSRU_CODES: Record<string, SmsStatus> = { '103': 'delivered', '110': 'read' };
const SMSC_CODES: Record<string, SmsStatus> = { '1': 'delivered', '2': 'read', '4': 'read' };

export function readStatus(raw: string, service: SmsService): { status: SmsStatus; reason: string | null } {
  const s = raw.trim();
  if (!s) return { status: 'sent', reason: null };
  if (/^-?\d+$/.test(s)) {
    const n = Number(s);
    if (service === 'smsru') {
      if (SMSRU_CODES[s]) return { status: SMSRU_CODES[s], reason: null };
      return n >= 104 ? { status: 'undelivered', reason: s } : { status: 'sent', reason: null };
    }
    if (service === 'smsc') {
      if (SMSC_CODES[s]) return { status: SMSC_CODES[s], reason: null };
      return n === 3 || n >= 20 ? { status: 'undelivered', reason: s } : { status: 'sent', reason: null };
    }
    return { status: 'sent', reason: null };
  }
  const w = s.toLocaleLowerCase('ru');
  if (
    /не\s*достав|недостав|ошиб|просроч|отклон|заблок|удален|невозмож|не\s*отправ|undeliver|fail|error|expired|reject/.test(
      w,
    )
  )
    return { status: 'undelivered', reason: s.slice(0, 500) };
  if (/прочит|read|seen|просмотр/.test(w)) return { status: 'read', reason: null };
  if (/достав|deliver/.test(w)) return { status: 'delivered', reason: null };
  return { status: 'sent', reason: null };
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A zone's offset, remembered per UTC quarter hour (an offset changes only at such moments: every zone's offset is a
 * whole number of quarter hours and its changes happen at whole local minutes of them). Reading a file's 100,000
 * times asks the Intl formatter a few hundred times instead of 200,000.
 */
const offsets = new Map<string, number>();
function offsetAt(t: number, timeZone: string): number {
  const key = `${timeZone}|${Math.floor(t / 900_000)}`;
  let o = offsets.get(key);
  if (o === undefined) {
    if (offsets.size > 50_000) offsets.clear();
    o = offsetMs(t, timeZone);
    offsets.set(key, o);
  }
  return o;
}

/** A wall-clock time in the organisation's zone as an instant (the later one of a repeated hour). */
function zoned(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  timeZone: string,
): Date | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const probe = new Date(wall);
  if (probe.getUTCDate() !== d) return null;
  const t = wall - offsetAt(wall - offsetAt(wall, timeZone), timeZone);
  return new Date(t);
}

/**
 * A time as exports write it: ISO 8601 (with or without its offset), `DD.MM.YYYY HH:MM[:SS]`,
 * `YYYY-MM-DD HH:MM[:SS]`, Unix seconds, or an Excel date serial (a spreadsheet's date cell). Without an offset it
 * is the organisation's local time. Null when unreadable.
 */
export function readTime(raw: string, timeZone: string): Date | null {
  const s = raw.trim();
  if (!s) return null;
  let m =
    /^(\d{4})-(\d{2})-(\d{2})[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(s);
  if (m) {
    if (m[7]) {
      const t = new Date(
        `${m[1]}-${m[2]}-${m[3]}T${pad(+m[4])}:${m[5]}:${m[6] ?? '00'}${m[7].length === 5 ? `${m[7].slice(0, 3)}:${m[7].slice(3)}` : m[7]}`,
      );
      return Number.isNaN(t.getTime()) ? null : t;
    }
    return zoned(+m[1], +m[2], +m[3], +m[4], +m[5], +(m[6] ?? 0), timeZone);
  }
  m = /^(\d{1,2})[./](\d{1,2})[./](\d{4})(?:[ ,T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (m) return zoned(+m[3], +m[2], +m[1], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), timeZone);
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return zoned(+m[1], +m[2], +m[3], 0, 0, 0, timeZone);
  if (/^\d{9,10}$/.test(s)) return new Date(Number(s) * 1000);
  if (/^\d{5}(\.\d+)?$/.test(s)) {
    // Excel's serial: days since 1899-12-30, the fraction the time of day, in local time.
    const days = Number(s);
    if (days < 20_000 || days > 80_000) return null;
    const ms = Math.round((days - 25_569) * 86_400_000);
    const d = new Date(ms);
    return zoned(
      d.getUTCFullYear(),
      d.getUTCMonth() + 1,
      d.getUTCDate(),
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
      timeZone,
    );
  }
  return null;
}

/** Digits a phone must have (E.164 allows 15; shorter than 7 is no mobile number anywhere). */
const phoneOk = (e164: string) => /^\+\d{7,15}$/.test(e164);
/** A phone as written in an export: '79161234567', '+7 (916) 123-45-67', '89161234567'; null when it is not one. */
export function readPhone(raw: string): string | null {
  const t = raw.trim().replace(/^'/, '');
  if (!t || !/^\+?[\d\s().-]+$/.test(t)) return null;
  const e = toE164(t);
  return phoneOk(e) ? e : null;
}

/** A row's own id when the file has none: its phone, time and text (so the same file again adds nothing). */
export const derivedId = (phone: string, sentAt: Date, text: string) =>
  `row:${createHash('sha256').update(`${phone}\u0001${sentAt.toISOString()}\u0001${text}`).digest('base64url')}`;

/**
 * The key of one SMS at its service: SMS.ru's sms_id is one SMS; SMSC.ru's id is one send request, which may go to
 * several phones, so its SMS is the id and the phone (as its status reports name it).
 */
export const serviceId = (service: SmsService, id: string, phone: string) =>
  service === 'smsc' ? `${id}:${phone.slice(1)}` : id;

/** A day of clock difference between the service and us is allowed; a time later than that is a wrong reading. */
const FUTURE_SLACK_MS = 24 * 3_600_000;

/** One row of the file as an SMS to store, or why it is refused. */
export function readRow(
  cells: string[],
  m: SmsImportMapping,
  ctx: { service: SmsService; timeZone: string; now: Date },
): SmsItem | { refused: SmsImportRefusal } {
  const cell = (i: number | null) => (i === null ? '' : (cells[i] ?? ''));
  const phone = readPhone(cell(m.phone));
  if (!phone) return { refused: 'phone' };
  const text = cell(m.text).replace(/\r\n?/g, '\n').trim();
  if (!text) return { refused: 'text' };
  if (text.length > SMS_IMPORT_LIMITS.textMax) return { refused: 'text_too_long' };
  let sentAt = ctx.now;
  if (m.sentAt !== null) {
    const t = readTime(cell(m.sentAt), ctx.timeZone);
    if (!t || t.getTime() > ctx.now.getTime() + FUTURE_SLACK_MS) return { refused: 'time' };
    sentAt = t;
  }
  const { status, reason } =
    m.status === null ? { status: 'sent' as const, reason: null } : readStatus(cell(m.status), ctx.service);
  const id = cell(m.messageId).trim();
  if (id.length > 200) return { refused: 'message_id' };
  return {
    phone,
    text,
    sentAt,
    status,
    reason,
    externalId: id ? serviceId(ctx.service, id, phone) : derivedId(phone, sentAt, text),
  };
}

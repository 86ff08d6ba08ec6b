import type { Attachment, MailingCreate, MailingDto, MailingMarketingType } from '@smartconnect/contracts';
import { MAILING_LIMITS } from '@smartconnect/contracts';
import type { AudienceCountInput } from './keys.ts';

/** The mailing form's values: dates and times as the inputs hold them, the uploaded list as its text. */
export type MailingFormValues = {
  name: string;
  channelId: string | null;
  marketingType: MailingMarketingType;
  text: string;
  /** Uploaded files (POST /api/files) sent with the text. */
  attachments: Attachment[];
  /** A WhatsApp template registered at the provider (WhatsApp channels only). */
  template: MailingTemplateValue | null;
  statusIds: string[];
  tags: string[];
  companyIds: string[];
  managerIds: string[];
  /** `YYYY-MM-DD` of a date input, or ''. */
  lastContactAfter: string;
  lastContactBefore: string;
  /** Phones or provider ids, one a line (pasted, or read from a file). */
  list: string;
  schedule: 'now' | 'at';
  /** `YYYY-MM-DDTHH:MM` of a datetime-local input. */
  scheduledAt: string;
  windowOn: boolean;
  windowFrom: string;
  windowTo: string;
  ratePerSecond: number | string;
};

export type MailingTemplateValue = { name: string; languageCode: string; variables: string[] };

export const EMPTY_VALUES: MailingFormValues = {
  name: '',
  channelId: null,
  marketingType: 'service',
  text: '',
  attachments: [],
  template: null,
  statusIds: [],
  tags: [],
  companyIds: [],
  managerIds: [],
  lastContactAfter: '',
  lastContactBefore: '',
  list: '',
  schedule: 'now',
  scheduledAt: '',
  windowOn: false,
  windowFrom: '09:00',
  windowTo: '21:00',
  ratePerSecond: '',
};

/**
 * The entries of an uploaded list: one a line, the first column of a CSV (comma, semicolon or tab), quotes and
 * spaces trimmed, empty lines dropped.
 */
export function parseList(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const first = line
      .split(/[,;\t]/)[0]
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim();
    if (first) out.push(first);
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** An instant as a `datetime-local` input shows it, in the browser's time zone. */
export const toLocalInput = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
/** A `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM` input's value, read in the browser's time zone, as an instant. */
export const fromLocalInput = (value: string): string | undefined => {
  if (!value) return undefined;
  const d = new Date(value.length === 10 ? `${value}T00:00` : value);
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
};

/** The audience the API takes: only the filters given. */
export function toAudience(v: MailingFormValues): AudienceCountInput['audience'] {
  const list = parseList(v.list);
  return {
    ...(v.statusIds.length ? { statusIds: v.statusIds } : {}),
    ...(v.tags.length ? { tags: v.tags } : {}),
    ...(v.companyIds.length ? { companyIds: v.companyIds } : {}),
    ...(v.managerIds.length ? { managerIds: v.managerIds } : {}),
    ...(v.lastContactBefore ? { lastContactBefore: fromLocalInput(v.lastContactBefore) } : {}),
    ...(v.lastContactAfter ? { lastContactAfter: fromLocalInput(v.lastContactAfter) } : {}),
    ...(list.length ? { list } : {}),
  };
}

/** The body of a create (and, whole, of an update). */
export function toBody(v: MailingFormValues): MailingCreate {
  const rate = v.ratePerSecond === '' ? null : Number(v.ratePerSecond);
  return {
    name: v.name,
    channelId: v.channelId ?? '',
    marketingType: v.marketingType,
    text: v.text,
    attachments: v.attachments,
    template: v.template,
    audience: toAudience(v),
    scheduledAt: v.schedule === 'at' ? (fromLocalInput(v.scheduledAt) ?? '') : null,
    sendWindow: v.windowOn ? { from: v.windowFrom, to: v.windowTo } : null,
    ratePerSecond: rate,
  } as MailingCreate;
}

/** A saved mailing as the form shows it. */
export function fromMailing(m: MailingDto): MailingFormValues {
  const a = m.audience;
  const day = (iso: string | undefined) => (iso ? toLocalInput(iso).slice(0, 10) : '');
  return {
    name: m.name,
    channelId: m.channel.id,
    marketingType: m.marketingType,
    text: m.text,
    attachments: m.attachments,
    template: m.template ? { ...m.template, variables: [...m.template.variables] } : null,
    statusIds: a.statusIds ?? [],
    tags: a.tags ?? [],
    companyIds: a.companyIds ?? [],
    managerIds: a.managerIds ?? [],
    lastContactAfter: day(a.lastContactAfter),
    lastContactBefore: day(a.lastContactBefore),
    list: (a.list ?? []).join('\n'),
    schedule: m.scheduledAt ? 'at' : 'now',
    scheduledAt: m.scheduledAt ? toLocalInput(m.scheduledAt) : '',
    windowOn: !!m.sendWindow,
    windowFrom: m.sendWindow?.from ?? EMPTY_VALUES.windowFrom,
    windowTo: m.sendWindow?.to ?? EMPTY_VALUES.windowTo,
    ratePerSecond: m.ratePerSecond ?? '',
  };
}

/** Where the API's field paths show in the form (the audience's fields are the form's own). */
export const FIELD_MAP: Record<string, string> = {
  'audience.statusIds': 'statusIds',
  'audience.tags': 'tags',
  'audience.companyIds': 'companyIds',
  'audience.managerIds': 'managerIds',
  'audience.lastContactBefore': 'lastContactBefore',
  'audience.lastContactAfter': 'lastContactAfter',
  'audience.list': 'list',
  'sendWindow.from': 'windowFrom',
  'sendWindow.to': 'windowTo',
  sendWindow: 'windowTo',
};

/** A form error path (a zod issue's or the server's) under its input: `audience.list.3` goes to `list`. */
export function formPath(path: string): string {
  // Each template variable has its own input.
  if (/^template\.variables\.\d+$/.test(path)) return path;
  const [head, second] = path.split('.');
  const two = second ? `${head}.${second}` : head;
  return FIELD_MAP[two] ?? FIELD_MAP[head] ?? head;
}

export const LIST_MAX = MAILING_LIMITS.listMax;

/** Errors keyed by the API's paths, keyed by the form's inputs instead (the first message of each input). */
export function toFormErrors(errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors)) {
    const key = formPath(k);
    if (!out[key]) out[key] = v;
  }
  return out;
}

import {
  CHANNEL_COMMON_FIELDS,
  CHANNEL_TYPE_FIELDS,
  type ChannelDto,
  type ChannelStatus,
  type ChannelType,
  channelCreateSchema,
  channelUpdateSchema,
  FIELD_MESSAGES as M,
} from '@smartconnect/contracts';
import { translateField } from '../../shared/i18n/index.ts';
import type { ChannelTypeUi, OwnValues } from './types/types.ts';

/** The form of a channel: its common fields, and the type's own fields under `own`. */
export type ChannelFormValues = {
  name: string;
  teamId: string;
  status: ChannelStatus;
  halfExpiredMinutes: number | string;
  expiredMinutes: number | string;
  notificationEmail: string;
  visibleTeamIds: string[];
  ratingBeforeEnd: boolean;
  ratingMessage: string;
  own: OwnValues;
};

export function channelToForm(ui: ChannelTypeUi, channel?: ChannelDto): ChannelFormValues {
  return {
    name: channel?.name ?? '',
    teamId: channel?.teamId ?? '',
    status: channel?.status ?? 'active',
    halfExpiredMinutes: channel?.halfExpiredMinutes ?? '',
    expiredMinutes: channel?.expiredMinutes ?? '',
    notificationEmail: channel?.notificationEmail ?? '',
    visibleTeamIds: channel?.visibleTeamIds ?? [],
    ratingBeforeEnd: channel?.ratingBeforeEnd ?? false,
    ratingMessage: channel?.ratingMessage ?? '',
    own: ui.initial(channel),
  };
}

/** A NumberInput's value as the API wants it: empty is null; text that is not a number stays (zod refuses it). */
const minutes = (v: number | string): unknown => (v === '' ? null : typeof v === 'number' ? v : Number(v));

/**
 * The body to send. Creating: every field. Editing: the common fields, and only the own fields the user changed
 * (an empty write-only secret means unchanged).
 */
export function channelPayload(
  ui: ChannelTypeUi,
  v: ChannelFormValues,
  initialOwn?: OwnValues,
): Record<string, unknown> {
  const type: ChannelType = ui.type;
  const own = ui.toBody
    ? ui.toBody(v.own, initialOwn)
    : Object.fromEntries(
        Object.entries(v.own).filter(([k, x]) =>
          initialOwn ? x.trim() !== '' && x !== initialOwn[k] : x.trim() !== '',
        ),
      );
  return {
    ...(initialOwn ? {} : { type }),
    name: v.name,
    teamId: v.teamId,
    status: v.status,
    halfExpiredMinutes: minutes(v.halfExpiredMinutes),
    expiredMinutes: minutes(v.expiredMinutes),
    notificationEmail: v.notificationEmail.trim() || null,
    // The channel's own team sees it anyway.
    visibleTeamIds: v.visibleTeamIds.filter((id) => id !== v.teamId),
    ratingBeforeEnd: v.ratingBeforeEnd,
    ratingMessage: v.ratingMessage.trim() || null,
    ...own,
  };
}

const COMMON = new Set(CHANNEL_COMMON_FIELDS);
/** A field of the API (or zod path) as a path of the form: the type's own fields live under `own`. */
export const formPath = (field: string, ui?: ChannelTypeUi) => {
  const top = field.split('.')[0];
  if (COMMON.has(top) || top === '_') return top;
  return ui?.fieldOf ? `own.${ui.fieldOf(field)}` : `own.${field}`;
};

/**
 * §5: an empty required field is 'Please fill in all required fields'; then the server's own schemas (create, or
 * update + the type's fields) give the spec's message under each field.
 */
export function validateChannel(ui: ChannelTypeUi, editing: boolean, initialOwn?: OwnValues) {
  return (v: ChannelFormValues): Record<string, string> => {
    const errors: Record<string, string> = {};
    const required = translateField(M.requiredFields) ?? '';
    if (!v.name.trim()) errors.name = required;
    if (!v.teamId) errors.teamId = required;
    const needed = typeof ui.required === 'function' ? ui.required(v.own) : ui.required;
    if (!editing) for (const f of needed) if (!v.own[f]?.trim()) errors[`own.${f}`] = required;
    const body = channelPayload(ui, v, editing ? initialOwn : undefined);
    const ownSchema = ui.updateSchema ?? CHANNEL_TYPE_FIELDS[ui.type].partial();
    const issues = editing
      ? [
          ...(channelUpdateSchema.safeParse(body).error?.issues ?? []),
          ...(ownSchema.safeParse(body).error?.issues ?? []),
        ]
      : (channelCreateSchema.safeParse(body).error?.issues ?? []);
    for (const issue of issues) {
      const field = ui.fieldOf ? issue.path.join('.') || '_' : String(issue.path[0] ?? '_');
      const path = formPath(field, ui);
      errors[path] ??= translateField(issue.message) ?? '';
    }
    return errors;
  };
}

import type { ChannelDto } from '@smartconnect/contracts';
import type { OwnValues } from '../types.ts';

export const PARTS = ['receive', 'send'] as const;
export type Part = (typeof PARTS)[number];
const FIELDS = ['Host', 'Port', 'Secure', 'Login', 'Password'] as const;

/** The form's flat keys of a server block: receiveHost, receivePort, ... (the form library reads dots as nesting). */
export const keyOf = (part: Part, field: (typeof FIELDS)[number]) => `${part}${field}`;

/** The form's values of a mailbox: from the channel's settings when editing (passwords always empty: write-only). */
export function emailInitial(channel?: ChannelDto): OwnValues {
  const settings = (channel?.settings ?? {}) as Record<string, unknown>;
  const values: OwnValues = { address: typeof settings.address === 'string' ? settings.address : '' };
  for (const part of PARTS) {
    const s = (settings[part] ?? {}) as Record<string, unknown>;
    const defaultPort = part === 'receive' ? '993' : '465';
    values[keyOf(part, 'Host')] = typeof s.host === 'string' ? s.host : '';
    values[keyOf(part, 'Port')] = s.port != null ? String(s.port) : channel ? '' : defaultPort;
    values[keyOf(part, 'Secure')] = s.secure === false ? 'false' : 'true';
    values[keyOf(part, 'Login')] = typeof s.login === 'string' ? s.login : '';
    values[keyOf(part, 'Password')] = '';
  }
  return values;
}

/** A typed port as the API takes it: a number when it is one; anything else is sent as typed (refused with §5's message). */
const portOf = (v: string) => (/^\s*\d+\s*$/.test(v) ? Number(v) : v);

/**
 * The mailbox's own fields of the body: `{address, receive: {...}, send: {...}}`. Editing: only what changed, and a
 * server block whole when any of its fields changed (its password only when a new one was typed).
 */
export function emailBody(own: OwnValues, initial?: OwnValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (!initial || own.address !== initial.address) body.address = own.address.trim();
  for (const part of PARTS) {
    const changed = !initial || FIELDS.some((f) => own[keyOf(part, f)] !== initial[keyOf(part, f)]);
    if (!changed) continue;
    const password = own[keyOf(part, 'Password')] ?? '';
    body[part] = {
      host: (own[keyOf(part, 'Host')] ?? '').trim(),
      port: portOf(own[keyOf(part, 'Port')] ?? ''),
      secure: own[keyOf(part, 'Secure')] !== 'false',
      login: (own[keyOf(part, 'Login')] ?? '').trim(),
      ...(password || !initial ? { password } : {}),
      protocol: part === 'receive' ? 'imap' : 'smtp',
    };
  }
  return body;
}

/** An API field path (`receive.port`) as the form's key (`receivePort`); a whole missing block shows at its host. */
export function emailFieldOf(path: string): string {
  const [top, field] = path.split('.');
  if (top !== 'receive' && top !== 'send') return top;
  if (!field) return keyOf(top, 'Host');
  const name = field.charAt(0).toUpperCase() + field.slice(1);
  return (FIELDS as readonly string[]).includes(name) ? `${top}${name}` : keyOf(top, 'Host');
}

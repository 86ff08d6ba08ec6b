import {
  CLIENT_STATUS_COLORS,
  type ClientDto,
  type ClientProfileDto,
  type ClientStatusColor,
} from '@smartconnect/contracts';
import type { ProfileRow } from './profile-queries.ts';
import type { ClientRow } from './queries.ts';

export const presentClient = (c: ClientRow): ClientDto => ({
  id: c.id,
  name: c.name,
  personalManagerId: c.personal_manager_id,
  contacts: c.contacts,
});

const iso = (d: Date | string) => new Date(d).toISOString();
export const presentStatusRef = (s: { id: string; name: string; color: ClientStatusColor } | null) =>
  s && { id: s.id, name: s.name, color: s.color, hex: CLIENT_STATUS_COLORS[s.color] };

/** A client's profile as the API shows it (`GET /api/clients/{id}`), from its client and profile rows. */
export const presentProfile = (base: ClientRow, p: ProfileRow): ClientProfileDto => ({
  ...presentClient(base),
  tags: p.tags,
  fields: p.fields,
  status: presentStatusRef(p.status),
  companies: p.companies,
  manager: p.manager,
  spam: p.spam,
  advertisingOptedOutAt: p.advertising_opted_out_at && iso(p.advertising_opted_out_at),
  sessionStatus: p.session_status,
  details: p.details,
  blocked: p.blocked_at !== null,
  blockedAt: p.blocked_at && iso(p.blocked_at),
  comments: p.comments.map((c) => ({
    id: c.id,
    text: c.text,
    author: c.author,
    createdAt: iso(c.created_at),
  })),
  history: p.history.map((h) => ({
    id: h.id,
    kind: h.kind,
    actor: h.actor,
    data: h.data,
    createdAt: iso(h.created_at),
  })),
  createdAt: iso(p.created_at),
});

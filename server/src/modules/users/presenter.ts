import type { UserDto, UserShortDto } from '@smartconnect/contracts';
import type { UserRow } from './queries.ts';

export const photoUrl = (key: string | null): string | null => (key ? `/api/files/${key}` : null);

/** The one JSON shape of a user, for the API and the websocket alike. */
export function presentUser(u: UserRow): UserDto {
  return {
    id: u.id,
    organisationId: u.organisation_id,
    name: u.name,
    email: u.email,
    phone: u.phone,
    photoUrl: photoUrl(u.photo_key),
    role: { id: u.role_id, name: u.role_name, builtIn: u.role_built_in },
    teams: u.teams,
    breakTimeoutMinutes: u.break_timeout_minutes,
    language: u.language,
    active: u.active,
    presence: u.presence,
    twoFactorEnabled: u.totp_enabled,
    lastActivityAt: u.last_activity_at ? new Date(u.last_activity_at).toISOString() : null,
    createdAt: new Date(u.created_at).toISOString(),
  };
}

export const presentUserShort = (u: {
  id: string;
  name: string;
  email: string;
  photo_key: string | null;
}): UserShortDto => ({
  id: u.id,
  name: u.name,
  email: u.email,
  photoUrl: photoUrl(u.photo_key),
});

import type { TeamDto } from '@smartconnect/contracts';
import type { TeamRow } from './queries.ts';

export const presentTeam = (t: TeamRow): TeamDto => ({
  id: t.id,
  name: t.name,
  description: t.description,
  distributionMethod: t.distribution_method,
  dialogLimit: t.dialog_limit,
  autoRedistributionMinutes: t.auto_redistribution_minutes,
  autoCloseMinutes: t.auto_close_minutes,
  inactivityHours: t.inactivity_hours,
  memberCount: t.members.length,
  members: t.members,
  createdAt: new Date(t.created_at).toISOString(),
});

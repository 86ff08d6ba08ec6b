import type { RoutingRuleDto } from '@smartconnect/contracts';
import type { RuleRow } from './queries.ts';

/** A rule as the API shows it; `priority` is its 1-based place in the list (the default rule last). */
export const presentRule = (r: RuleRow, priority: number): RoutingRuleDto => ({
  id: r.id,
  name: r.name,
  conditions: r.conditions,
  action: { type: r.action.type, teamId: r.action.teamId ?? null, botId: r.action.botId ?? null },
  enabled: r.enabled,
  isDefault: r.is_default,
  priority,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

export const presentRules = (rows: RuleRow[]): RoutingRuleDto[] => rows.map((r, i) => presentRule(r, i + 1));

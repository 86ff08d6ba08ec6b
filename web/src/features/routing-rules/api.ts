import type { Page, RoutingRuleDto } from '@smartconnect/contracts';
import { useQuery } from '@tanstack/react-query';
import { del, get, patch, post, put } from '../../shared/api/client.ts';
import { ruleKeys } from './keys.ts';

/** The organisation's rules in the order they are tried, the default rule last. */
export function useRoutingRules(enabled = true) {
  return useQuery({
    queryKey: ruleKeys.all,
    queryFn: async () => (await get<Page<RoutingRuleDto>>('/api/routing-rules')).items,
    enabled,
  });
}

export type RuleInput = {
  name: string;
  conditions: {
    clients: RoutingRuleDto['conditions']['clients'];
    channelIds: string[];
    messageType: RoutingRuleDto['conditions']['messageType'];
    marketingType?: NonNullable<RoutingRuleDto['conditions']['marketingType']>;
    intentsInclude: RoutingRuleDto['conditions']['intentsInclude'];
    intentsExclude: RoutingRuleDto['conditions']['intentsExclude'];
  };
  action: { type: RoutingRuleDto['action']['type']; teamId?: string; botId?: string };
};

export const createRule = (body: RuleInput) => post<RoutingRuleDto>('/api/routing-rules', body);
export const updateRule = (id: string, body: Partial<RuleInput> & { enabled?: boolean }) =>
  patch<RoutingRuleDto>(`/api/routing-rules/${id}`, body);
export const deleteRule = (id: string) => del<unknown>(`/api/routing-rules/${id}`);
export const reorderRules = (ids: string[]) => put<Page<RoutingRuleDto>>('/api/routing-rules/order', { ids });

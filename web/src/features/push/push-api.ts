import type {
  PushKeyDto,
  PushSettings,
  PushStateDto,
  PushSubscriptionDto,
  PushTestDto,
} from '@smartconnect/contracts';
import { useQuery } from '@tanstack/react-query';
import { del, get, post, put } from '../../shared/api/client.ts';
import { pushKeys } from './keys.ts';
import { currentSubscription } from './push-browser.ts';

export function usePushState() {
  return useQuery({ queryKey: pushKeys.settings, queryFn: () => get<PushStateDto>('/api/push/settings') });
}

/** This browser's push subscription's endpoint, if it has one (null where push is not available). */
export function useThisBrowser() {
  return useQuery({
    queryKey: pushKeys.here,
    queryFn: async () => (await currentSubscription())?.endpoint ?? null,
    meta: { silent: true },
  });
}

export const pushKey = () => get<PushKeyDto>('/api/push/key');
export const savePushSettings = (body: PushSettings) => put<PushStateDto>('/api/push/settings', body);
export const savePushSubscription = (sub: PushSubscriptionJSON) =>
  post<PushSubscriptionDto>('/api/push/subscriptions', { endpoint: sub.endpoint, keys: sub.keys });
export const removePushSubscription = (id: string) =>
  del<PushSubscriptionDto>(`/api/push/subscriptions/${id}`);
export const sendTestPush = () => post<PushTestDto>('/api/push/test');

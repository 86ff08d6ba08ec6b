import type { AutoRepliesDto } from '@smartconnect/contracts';
import { useQuery } from '@tanstack/react-query';
import { get, put } from '../../../shared/api/client.ts';
import { channelKeys } from '../keys.ts';

/** A channel's automatic replies (only asked when the plan has OPTION_AUTO_REPLY). */
export function useAutoReplies(channelId: string, enabled: boolean) {
  return useQuery({
    queryKey: channelKeys.autoReplies(channelId),
    queryFn: () => get<AutoRepliesDto>(`/api/channels/${channelId}/auto-replies`),
    enabled,
  });
}

export type AutoRepliesValues = Omit<AutoRepliesDto, 'channelId'>;

export const saveAutoReplies = (channelId: string, body: AutoRepliesValues) =>
  put<AutoRepliesDto>(`/api/channels/${channelId}/auto-replies`, body);

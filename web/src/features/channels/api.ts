import type { ChannelCreatedDto, ChannelDto, ChannelStatus, Page } from '@smartconnect/contracts';
import { useQuery } from '@tanstack/react-query';
import { del, get, patch, post } from '../../shared/api/client.ts';
import { channelKeys } from './keys.ts';

export function useChannels() {
  return useQuery({
    queryKey: channelKeys.all,
    queryFn: async () => (await get<Page<ChannelDto>>('/api/channels')).items,
  });
}

export function useChannel(id: string) {
  return useQuery({
    queryKey: channelKeys.one(id),
    queryFn: () => get<ChannelDto>(`/api/channels/${id}`),
  });
}

/** One flat body: `{type, name, teamId, ...the type's own fields}` (DECISIONS.md). */
export const createChannel = (body: Record<string, unknown>) =>
  post<ChannelCreatedDto>('/api/channels', body);
export const updateChannel = (id: string, body: Record<string, unknown>) =>
  patch<ChannelDto>(`/api/channels/${id}`, body);
export const deleteChannel = (id: string) => del<unknown>(`/api/channels/${id}`);
export const setChannelStatus = (id: string, status: ChannelStatus) =>
  patch<ChannelDto>(`/api/channels/${id}`, { status });

/** The curl call an integrator copies to push a customer message into the channel. */
export function curlExample(inboundUrl: string, key: string): string {
  const body = JSON.stringify({
    externalMessageId: 'msg-1',
    client: { externalId: 'client-1', name: 'Jane Doe' },
    text: 'Hello!',
  });
  return [
    `curl -X POST '${inboundUrl}' \\`,
    `  -H 'Authorization: Bearer ${key}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${body}'`,
  ].join('\n');
}

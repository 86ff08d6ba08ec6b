import type { ChannelCreatedDto, ChannelDto, ChannelStatus, Page } from '@smartconnect/contracts';
import { useQuery } from '@tanstack/react-query';
import { get, patch, post } from '../../shared/api/client.ts';

export const channelKeys = { all: ['channels'] as const };

export function useChannels() {
  return useQuery({
    queryKey: channelKeys.all,
    queryFn: async () => (await get<Page<ChannelDto>>('/api/channels')).items,
  });
}

export type ApiChannelInput = { name: string; teamId: string; webhookUrl: string };

export const createApiChannel = (body: ApiChannelInput) =>
  post<ChannelCreatedDto>('/api/channels', { type: 'api', ...body });
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

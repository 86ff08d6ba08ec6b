import type { Page, SmsImportDto, SmsImportMapping } from '@smartconnect/contracts';
import { useQuery } from '@tanstack/react-query';
import { get, post, qs } from '../../shared/api/client.ts';
import { smsImportKeys } from './keys.ts';

/** How often a running import is asked for again (its progress). */
export const RUNNING_POLL_MS = 1000;

const running = (i: SmsImportDto | undefined) => i?.status === 'running';

/** The organisation's imports, newest first (of one channel, or all); polled while one of them runs. */
export function useSmsImports(channelId: string | null) {
  return useQuery({
    queryKey: smsImportKeys.list(channelId),
    queryFn: () => get<Page<SmsImportDto>>(`/api/sms-imports${qs({ channelId })}`),
    refetchInterval: (q) => (q.state.data?.items.some(running) ? RUNNING_POLL_MS * 3 : false),
  });
}

/** One import; every second while it runs (its progress), then its summary stays. */
export function useSmsImport(id: string | null) {
  return useQuery({
    queryKey: smsImportKeys.one(id),
    queryFn: () => get<SmsImportDto>(`/api/sms-imports/${id}`),
    enabled: !!id,
    retry: false,
    refetchInterval: (q) => (running(q.state.data) ? RUNNING_POLL_MS : false),
  });
}

/** Uploads an export file to an `sms` channel (multipart: the channel first, then the file). */
export function uploadSmsImport(channelId: string, file: File) {
  const form = new FormData();
  form.set('channelId', channelId);
  form.set('file', file, file.name);
  return post<SmsImportDto>('/api/sms-imports', form);
}

export const startSmsImport = (id: string, mapping: SmsImportMapping) =>
  post<SmsImportDto>(`/api/sms-imports/${id}/start`, { mapping });

import type {
  MailingAudienceCountDto,
  MailingCreate,
  MailingDto,
  MailingSettingsDto,
  MailingStatus,
  MailingUpdate,
  Page,
  WhatsAppTemplateDto,
} from '@smartconnect/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { del, get, patch, post, put, qs } from '../../shared/api/client.ts';
import { type AudienceCountInput, mailingKeys } from './keys.ts';

/** How often a mailing being sent is asked for again (its progress and statistics). */
export const SENDING_POLL_MS = 2000;

/** The organisation's mailings, newest first, of one status or all; polled while any is being sent. */
export function useMailings(status: MailingStatus | null) {
  return useQuery({
    queryKey: mailingKeys.list(status),
    queryFn: () => get<Page<MailingDto>>(`/api/mailings${qs({ status: status ?? undefined })}`),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.items.some((m) => m.status === 'sending') ? SENDING_POLL_MS * 2 : false,
  });
}

/** One mailing; while it is being sent it is asked for every 2 seconds (its progress and statistics). */
export function useMailing(id: string | undefined) {
  return useQuery({
    queryKey: mailingKeys.one(id),
    queryFn: () => get<MailingDto>(`/api/mailings/${id}`),
    enabled: !!id,
    retry: false,
    // A scheduled one is asked for now and then too: it turns 'sending' at its time.
    refetchInterval: (q) =>
      q.state.data?.status === 'sending'
        ? SENDING_POLL_MS
        : q.state.data?.status === 'scheduled'
          ? 30_000
          : false,
  });
}

/**
 * The live count of an audience (who would receive it, who would be skipped and why). `body` null: nothing to
 * count yet. Its failures are shown by the form (a channel that cannot start conversations), not as toasts.
 */
export function useAudienceCount(body: AudienceCountInput | null) {
  return useQuery({
    queryKey: mailingKeys.audienceCount(
      body ?? { channelId: '', marketingType: 'service', audience: {}, template: false },
    ),
    queryFn: ({ signal }) => post<MailingAudienceCountDto>('/api/mailings/audience-count', body, { signal }),
    enabled: !!body,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 5000,
    meta: { silent: true },
  });
}

/** The opt-out words in force (the defaults unless the organisation chose its own); errors shown by the modal. */
export function useMailingSettings(enabled: boolean) {
  return useQuery({
    queryKey: mailingKeys.settings,
    queryFn: () => get<MailingSettingsDto>('/api/mailing-settings'),
    enabled,
    retry: false,
    meta: { silent: true },
  });
}

/**
 * The templates registered at the provider that a mailing of this channel may send (the mailing right is enough;
 * no template right). Its failure is shown by the form's template field, not as a toast.
 */
export function useMailingTemplates(channelId: string | null) {
  return useQuery({
    queryKey: mailingKeys.templates(channelId),
    queryFn: async () =>
      (await get<Page<WhatsAppTemplateDto>>(`/api/mailing-templates${qs({ channelId })}`)).items,
    enabled: !!channelId,
    retry: false,
    meta: { silent: true },
  });
}

export type MailingAction = 'start' | 'pause' | 'resume' | 'cancel';

export const createMailing = (body: MailingCreate) => post<MailingDto>('/api/mailings', body);
export const updateMailing = (id: string, body: MailingUpdate) =>
  patch<MailingDto>(`/api/mailings/${id}`, body);
export const deleteMailing = (id: string) => del<unknown>(`/api/mailings/${id}`);
/** New opt-out words, or null: back to the defaults. */
export const saveMailingSettings = (optOutWords: string[] | null) =>
  put<MailingSettingsDto>('/api/mailing-settings', { optOutWords });
export const runMailingAction = (id: string, action: MailingAction) =>
  post<MailingDto>(`/api/mailings/${id}/${action}`);

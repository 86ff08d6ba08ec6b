import { Alert, Button, Group, Modal, Radio, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import {
  type ChatDto,
  fillProviderTemplate,
  type MessageDto,
  type Page,
  providerTemplateVariables,
  type WhatsAppTemplateDto,
} from '@smartconnect/contracts';
import { IconClockHour4, IconTemplate } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { get, post } from '../../shared/api/client.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { channelUi } from '../channels/types/registry.ts';
import { chatKeys } from './keys.ts';
import { useNow } from './list/use-now.ts';
import { useUpsertMessage } from './use-chat-cache.ts';

/** When the chat's session window closes (ms), for a channel type that has one; undefined for the others. */
export function sessionClosesAt(chat: ChatDto): number | null | undefined {
  const session = channelUi(chat.channel.type)?.session;
  if (!session) return undefined;
  if (!chat.lastClientMessageAt) return null;
  return Date.parse(chat.lastClientMessageAt) + session.hours * 3_600_000;
}

/**
 * Above the message box of a chat whose channel has a session window: when it closes, or that it has closed and
 * only the provider's templates can be sent (the button opens them, for a channel whose provider has templates). `canWrite`: the caller may answer the chat.
 */
export function SessionWindow({ chat, canWrite }: { chat: ChatDto; canWrite: boolean }) {
  const { t, i18n } = useTranslation();
  const now = useNow(30_000);
  const [open, setOpen] = useState(false);
  const session = channelUi(chat.channel.type)?.session;
  const closesAt = sessionClosesAt(chat);
  if (!session || closesAt === undefined || chat.status === 'closed') return null;
  const ended = closesAt === null || closesAt <= now;
  // The channel's provider may have no templates (a WhatsApp business solution provider): no button then.
  const label = session.templatesLabel && chat.channel.templates ? t(session.templatesLabel) : null;
  const button = canWrite && label && (
    <Button
      size="compact-sm"
      variant={ended ? 'filled' : 'light'}
      leftSection={<IconTemplate size={16} aria-hidden />}
      onClick={() => setOpen(true)}
      data-testid="provider-templates-button"
    >
      {label}
    </Button>
  );
  return (
    <>
      {ended ? (
        <Alert color="orange" variant="light" mx="sm" mt={4} p="xs" data-testid="session-ended" role="status">
          <Group justify="space-between" gap="xs">
            <Text size="sm">{t(session.ended ?? 'messengers.session.ended')}</Text>
            {button}
          </Group>
        </Alert>
      ) : (
        <Group justify="space-between" gap="xs" px="sm" pt={4} data-testid="session-open">
          <Group gap={4} wrap="nowrap">
            <IconClockHour4 size={16} aria-hidden />
            <Text size="xs" c="gray.7">
              {t(session.closesAt ?? 'messengers.session.closesAt', {
                time: new Intl.DateTimeFormat(i18n.language, {
                  dateStyle: 'short',
                  timeStyle: 'short',
                }).format(closesAt),
              })}
            </Text>
          </Group>
          {button}
        </Group>
      )}
      {open && label && (
        <ProviderTemplatesModal chatId={chat.id} title={label} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

/** The chat channel's registered templates: pick one, fill its variables, send. */
function ProviderTemplatesModal({
  chatId,
  title,
  onClose,
}: {
  chatId: string;
  title: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const upsert = useUpsertMessage();
  const list = useQuery({
    queryKey: chatKeys.providerTemplates(chatId),
    queryFn: async () =>
      (await get<Page<WhatsAppTemplateDto>>(`/api/chats/${chatId}/provider-templates`)).items,
  });
  const [picked, setPicked] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string[]>>({});
  const [tried, setTried] = useState(false);
  const template = list.data?.find((x) => x.id === picked);
  const vars = template ? providerTemplateVariables(template.text) : [];
  const current = picked ? (values[picked] ?? []) : [];
  const missing = vars.some((_, i) => !current[i]?.trim());
  const send = useMutation({
    mutationFn: () =>
      post<MessageDto>(`/api/chats/${chatId}/template-messages`, {
        templateId: picked,
        variables: vars.map((_, i) => current[i]?.trim() ?? ''),
      }),
    onSuccess: (m) => {
      upsert(m);
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      {list.isLoading ? (
        <SectionLoader />
      ) : !list.data?.length ? (
        <Text size="sm" c="gray.7" data-testid="provider-templates-empty">
          {t('messengers.templates.empty')}
        </Text>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (template && !missing) send.mutate();
          }}
        >
          <Stack>
            <Radio.Group
              label={t('messengers.templates.pick')}
              value={picked}
              onChange={(v) => {
                setPicked(v);
                setTried(false);
              }}
            >
              <ScrollArea.Autosize mah={260}>
                <Stack gap="xs" mt="xs" data-testid="provider-templates">
                  {list.data.map((x) => (
                    <Radio
                      key={x.id}
                      value={x.id}
                      label={`${x.name} (${t(`languages.${x.language}`)})`}
                      description={<UserText>{x.text}</UserText>}
                    />
                  ))}
                </Stack>
              </ScrollArea.Autosize>
            </Radio.Group>
            {template &&
              vars.map((n, i) => (
                <TextInput
                  key={n}
                  label={t('messengers.templates.variable', { n })}
                  required
                  value={current[i] ?? ''}
                  error={tried && !current[i]?.trim() ? t('fields.requiredFields') : undefined}
                  onChange={(e) => {
                    const next = [...current];
                    next[i] = e.currentTarget.value;
                    setValues({ ...values, [template.id]: next });
                  }}
                />
              ))}
            {template && (
              <Text size="sm" data-testid="provider-template-preview">
                <UserText>
                  {fillProviderTemplate(
                    template.text,
                    current.map((v) => v.trim()),
                  )}
                </UserText>
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" disabled={!template} loading={send.isPending}>
                {t('chat.send')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

import {
  ActionIcon,
  Badge,
  Button,
  Divider,
  Group,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ChatDto, clientUpdateSchema } from '@smartconnect/contracts';
import { IconCheck, IconPencil, IconX } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showServerErrors, zodValidate } from '../../../shared/form.ts';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { useAccess } from '../../../shared/session.tsx';
import { UserText } from '../../../shared/ui/user-text.tsx';
import { pathText } from '../../categories/api.ts';
import { clientKeys } from '../../client-profiles/keys.ts';
import { ProfileCard } from '../../client-profiles/profile-card.tsx';
import { insertIntoComposer } from '../../knowledge-base/insert-bus.ts';
import { KbSearch } from '../../knowledge-base/kb-search.tsx';
import { ChatTopic } from '../chat-topic.tsx';
import { chatKeys } from '../keys.ts';
import { renameClient, useClient, useClientChats } from '../list/list-api.ts';
import { elapsed, useNow } from '../list/use-now.ts';
import { ClientFiles } from './client-files.tsx';
import { ClientHistory } from './client-history.tsx';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap={6} component="section" aria-label={title}>
      <Title order={3} size="xs" tt="uppercase" c="dimmed" fw={700}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function Row({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="xs" ta="right" style={{ minWidth: 0 }} truncate>
        {value}
      </Text>
    </Group>
  );
}

function NameEditor({ clientId, name, onDone }: { clientId: string; name: string; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm({ initialValues: { name }, validate: zodValidate(clientUpdateSchema) });
  const save = useMutation({
    mutationFn: (v: { name: string }) => renameClient(clientId, v.name.trim()),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: clientKeys.one(clientId) });
      await client.invalidateQueries({ queryKey: chatKeys.all });
      await client.invalidateQueries({ queryKey: chatKeys.chatAll });
      onDone();
    },
    onError: (err) => showServerErrors(form, err),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))} data-editing>
      <Group gap={4} align="flex-start" wrap="nowrap">
        <TextInput
          size="xs"
          flex={1}
          label={t('workspace.clientName')}
          withAsterisk
          // Opened by a click on the pencil: what is typed next is the name (issue 36: never a shortcut).
          autoFocus
          {...form.getInputProps('name')}
        />
        <ActionIcon type="submit" mt={24} loading={save.isPending} aria-label={t('common.save')}>
          <IconCheck size={14} />
        </ActionIcon>
        <ActionIcon variant="subtle" color="gray" mt={24} onClick={onDone} aria-label={t('common.cancel')}>
          <IconX size={14} />
        </ActionIcon>
      </Group>
    </form>
  );
}

/**
 * The client side panel of the chat screen (§2.6): profile (name, contacts and channel identities; editable with
 * AUTHORITY_PROFILE_UPDATE) with the client card (client-profiles: status, tags, fields, companies, manager, comments,
 * block, merge), the current request, the knowledge base (issue 36), interaction history on every channel and attached files.
 */
export function ClientPanel({ chat }: { chat: ChatDto }) {
  const { t, i18n } = useTranslation();
  const { can, has } = useAccess();
  const profile = useClient(chat.client.id);
  const history = useClientChats(chat.client.id, has('OPTION_PROFILE_SESSION_HISTORY'));
  const channelNames = new Map((history.data?.items ?? []).map((c) => [c.channel.id, c.channel.name]));
  channelNames.set(chat.channel.id, chat.channel.name);
  const [editing, setEditing] = useState(false);
  const now = useNow(1000);
  const name = profile.data?.name ?? chat.client.name;
  const fmt = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }).format(
          new Date(iso),
        )
      : '—';
  const waitedUntil = chat.assignedAt ?? (chat.status === 'waiting' ? null : chat.closedAt);
  const waiting = waitedUntil
    ? elapsed(chat.createdAt, Date.parse(waitedUntil), t)
    : elapsed(chat.createdAt, now, t);
  const handling = chat.assignedAt
    ? elapsed(chat.assignedAt, chat.closedAt ? Date.parse(chat.closedAt) : now, t)
    : '—';
  return (
    <ScrollArea flex={1} type="auto" data-testid="client-panel">
      <Stack p="md" gap="lg" component="aside" aria-label={t('workspace.clientPanel')}>
        <Section title={t('workspace.profile')}>
          {editing ? (
            <NameEditor clientId={chat.client.id} name={name} onDone={() => setEditing(false)} />
          ) : (
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={650} truncate data-testid="client-name">
                <UserText>{name}</UserText>
              </Text>
              {can('AUTHORITY_PROFILE_UPDATE') && (
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  aria-label={t('workspace.editName')}
                  onClick={() => setEditing(true)}
                  data-testid="edit-client-name"
                >
                  <IconPencil size={14} />
                </ActionIcon>
              )}
            </Group>
          )}
          {(profile.data?.contacts ?? []).map((c) => (
            <Stack key={`${c.channelId}:${c.externalId}`} gap={2}>
              <Group gap={6} wrap="nowrap">
                <Badge size="xs" variant="light" color="gray" style={{ flexShrink: 0 }}>
                  <UserText>{channelNames.get(c.channelId) ?? t('workspace.channel')}</UserText>
                </Badge>
                <Text size="xs" truncate>
                  <UserText>{c.username ? `@${c.username}` : c.externalId}</UserText>
                </Text>
              </Group>
              {c.email && (
                <Text size="xs" truncate data-testid="contact-email">
                  {t('workspace.email')}: <UserText>{c.email}</UserText>
                </Text>
              )}
              {c.phone && (
                <Text size="xs" truncate data-testid="contact-phone">
                  {t('workspace.phone')}: <UserText>{c.phone}</UserText>
                </Text>
              )}
            </Stack>
          ))}
          <ProfileCard clientId={chat.client.id} />
        </Section>
        <Divider />
        <Section title={t('workspace.currentRequest')}>
          {chat.topic && (
            <Row
              label={t(`conversation.topicKind.${chat.topic.kind}`)}
              value={<ChatTopic topic={chat.topic} withKind={false} />}
            />
          )}
          <Row label={t('workspace.status')} value={t(`chat.status.${chat.status}`)} />
          <Row
            label={t('workspace.category')}
            value={chat.category ? <UserText>{pathText(chat.category.path)}</UserText> : '—'}
          />
          <Row label={t('workspace.team')} value={chat.team.name} />
          <Row label={t('workspace.operator')} value={chat.operator?.name ?? '—'} />
          <Row label={t('workspace.opened')} value={fmt(chat.createdAt)} />
          <Row label={t('workspace.waitingTime')} value={waiting} />
          <Row label={t('workspace.handlingTime')} value={handling} />
        </Section>
        <Divider />
        <Section title={t('kb.title')}>
          <KbSearch
            testId="kb-panel-search"
            disabled={chat.status === 'closed'}
            onInsert={(text) => insertIntoComposer(chat.id, text)}
          />
        </Section>
        <Divider />
        {has('OPTION_PROFILE_SESSION_HISTORY') && (
          <>
            <Section title={t('workspace.history')}>
              <ClientHistory clientId={chat.client.id} currentChatId={chat.id} />
            </Section>
            <Divider />
          </>
        )}
        <Section title={t('workspace.files')}>
          <ClientFiles clientId={chat.client.id} />
        </Section>
        {!profile.data && profile.isLoading && (
          <Button variant="subtle" loading size="xs">
            {t('common.loading')}
          </Button>
        )}
      </Stack>
    </ScrollArea>
  );
}

import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { type ChatBotSummaryDto, chatBotCreateSchema } from '@smartconnect/contracts';
import { IconPencil, IconPlus, IconRobot, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../shared/api/errors.ts';
import { isolate } from '../../shared/bidi.ts';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifyMessage, notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { RowAction } from '../../shared/ui/list-table.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { type BotInput, createBot, deleteBot, useChatBots } from './api.ts';
import { botKeys } from './keys.ts';

export const editorPath = (id: string) => `/admin/preferences/chat-bots/bot?id=${id}`;

/** /admin/preferences/chat-bots: the organisation's bots; create one (then draw it), open the editor, delete. */
export function ChatBotsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const bots = useChatBots();
  const [creating, setCreating] = useState(false);
  const remove = useMutation({
    mutationFn: (b: ChatBotSummaryDto) => deleteBot(b.id),
    meta: { silent: true },
    onSuccess: async () => {
      notifySuccess(t('chatBots.deleted'));
      await client.invalidateQueries({ queryKey: botKeys.all });
    },
    onError: (err) => {
      // §8 'chatbot used by rules (names listed)'.
      if (isApiError(err) && err.code === 'chatBotUsedByRulesException') {
        const rules = (err.details?.rules as string[] | undefined) ?? [];
        notifyMessage(t('errors.chatBotUsedByRulesException', { rules: rules.map(isolate).join(', ') }));
      } else if (isApiError(err))
        notifyMessage(t(`errors.${err.code}`, { defaultValue: t('errors.unknownException') }));
    },
  });
  const confirmDelete = (b: ChatBotSummaryDto) =>
    modals.openConfirmModal({
      title: t('chatBots.deleteTitle'),
      children: <Text size="sm">{t('chatBots.deleteText', { name: isolate(b.name) })}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(b),
    });

  return (
    <Paper p={0} style={{ overflow: 'hidden' }}>
      <Group justify="space-between" p="md" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <div style={{ flex: '1 1 260px' }}>
          <Text fw={650} size="lg" component="h2">
            {t('chatBots.title')}
          </Text>
          <Text size="sm" c="dimmed">
            {t('chatBots.subtitle')}
          </Text>
        </div>
        <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
          {t('chatBots.add')}
        </Button>
      </Group>
      {bots.isLoading ? (
        <SectionLoader />
      ) : bots.isError && !bots.data ? (
        <ErrorState onRetry={() => void bots.refetch()} retrying={bots.isFetching} />
      ) : (
        <Stack gap={0} component="ul" p={0} m={0} data-testid="chat-bots" style={{ listStyle: 'none' }}>
          {!bots.data?.length && (
            <li>
              <EmptyState
                icon={<IconRobot size={30} />}
                title={t('chatBots.empty')}
                text={t('chatBots.emptyHint')}
              />
            </li>
          )}
          {bots.data?.map((b) => (
            <Group
              key={b.id}
              component="li"
              wrap="wrap"
              gap="sm"
              p="sm"
              data-testid={`bot-${b.name}`}
              style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
            >
              <Stack gap={2} style={{ flex: '1 1 220px', minWidth: 0 }}>
                <Text
                  fw={600}
                  size="sm"
                  component={Link}
                  to={editorPath(b.id)}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  <UserText>{b.name}</UserText>
                </Text>
                {b.description && (
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    <UserText>{b.description}</UserText>
                  </Text>
                )}
              </Stack>
              <Group gap={6} wrap="nowrap" ml="auto">
                {b.publishedVersion === null ? (
                  <Badge color="gray" variant="light">
                    {t('chatBots.notPublished')}
                  </Badge>
                ) : (
                  <Badge color="teal" variant="light">
                    {t('chatBots.version', { n: b.publishedVersion })}
                  </Badge>
                )}
                {b.publishedVersion !== null && b.hasUnpublishedChanges && (
                  <Badge color="orange" variant="light">
                    {t('chatBots.draftChanged')}
                  </Badge>
                )}
                <Tooltip label={t('chatBots.open', { name: b.name })}>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    component={Link}
                    to={editorPath(b.id)}
                    aria-label={t('chatBots.open', { name: b.name })}
                  >
                    <IconPencil size={18} />
                  </ActionIcon>
                </Tooltip>
                <RowAction
                  label={t('chatBots.deleteNamed', { name: b.name })}
                  icon={<IconTrash size={18} />}
                  color="red"
                  onClick={() => confirmDelete(b)}
                />
              </Group>
            </Group>
          ))}
        </Stack>
      )}
      <CreateBotModal opened={creating} onClose={() => setCreating(false)} />
    </Paper>
  );
}

function CreateBotModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const form = useForm<BotInput>({
    initialValues: { name: '', description: '', defaultMessage: '' },
    validate: zodValidate(chatBotCreateSchema),
  });
  const create = useMutation({
    mutationFn: createBot,
    meta: { form: true },
    onSuccess: async (bot) => {
      notifySuccess(t('chatBots.created'));
      await client.invalidateQueries({ queryKey: botKeys.all });
      onClose();
      form.reset();
      navigate(editorPath(bot.id));
    },
    onError: (err) => {
      if (isApiError(err) && err.code === 'chatBotNameExistsException')
        form.setErrors({ name: t('errors.chatBotNameExistsException') });
      else showServerErrors(form, err);
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('chatBots.add')}>
      <form onSubmit={form.onSubmit((v) => create.mutate(v))} noValidate>
        <Stack>
          <TextInput label={t('chatBots.name')} required data-autofocus {...form.getInputProps('name')} />
          <Textarea
            label={t('chatBots.description')}
            autosize
            minRows={2}
            {...form.getInputProps('description')}
          />
          <Textarea
            label={t('chatBots.defaultMessage')}
            description={t('chatBots.defaultMessageHint')}
            required
            autosize
            minRows={2}
            {...form.getInputProps('defaultMessage')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('common.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

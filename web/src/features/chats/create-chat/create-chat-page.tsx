import {
  Alert,
  Button,
  Combobox,
  Paper,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
  useCombobox,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { type ClientLookupDto, createChatSchema } from '@smartconnect/contracts';
import { IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { showServerErrors, zodValidate } from '../../../shared/form.ts';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { notifySuccess } from '../../../shared/notify.ts';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { UserText } from '../../../shared/ui/user-text.tsx';
import { clientKeys } from '../../client-profiles/keys.ts';
import { chatKeys } from '../keys.ts';
import { createChat, lookupClients } from '../list/list-api.ts';

type Values = { clientId: string; channelId: string; text: string };

/**
 * /admin/chats/create: start an outbound dialog with a known client on one of their channels whose type lets an
 * operator write first (§2.6 create-chat page). The chat opens In progress, assigned to the caller.
 */
export function CreateChatPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [chosen, setChosen] = useState<ClientLookupDto | null>(null);
  const combobox = useCombobox();
  const found = useQuery({
    queryKey: clientKeys.lookup(debounced),
    queryFn: () => lookupClients(debounced),
    enabled: debounced.length > 0,
  });
  const form = useForm<Values>({
    initialValues: { clientId: '', channelId: '', text: '' },
    validate: zodValidate(createChatSchema),
  });
  const start = useMutation({
    mutationFn: (v: Values) => createChat(v),
    onSuccess: async (chat) => {
      notifySuccess(t('workspace.created'));
      await client.invalidateQueries({ queryKey: chatKeys.all });
      navigate(`/admin/chats?filter=assigned&chat=${chat.id}`);
    },
    onError: (err) => showServerErrors(form, err),
  });
  const channels = chosen?.contacts.filter((c) => c.startDialog) ?? [];
  return (
    <Stack gap="lg" maw={640}>
      <PageHeader title={t('workspace.createTitle')} subtitle={t('workspace.createHint')} />
      <Paper p="lg">
        <form noValidate onSubmit={form.onSubmit((v) => start.mutate(v))}>
          <Stack gap="md">
            <Combobox
              store={combobox}
              onOptionSubmit={(id) => {
                const c = found.data?.items.find((x) => x.id === id) ?? null;
                setChosen(c);
                setSearch(c?.name ?? '');
                const first = c?.contacts.find((x) => x.startDialog);
                form.setValues({ clientId: id, channelId: first?.channelId ?? '' });
                combobox.closeDropdown();
              }}
            >
              <Combobox.Target>
                <TextInput
                  label={t('workspace.client')}
                  withAsterisk
                  placeholder={t('workspace.clientSearch')}
                  leftSection={<IconSearch size={14} />}
                  value={search}
                  onChange={(e) => {
                    setSearch(e.currentTarget.value);
                    setChosen(null);
                    form.setValues({ clientId: '', channelId: '' });
                    combobox.openDropdown();
                  }}
                  onFocus={() => combobox.openDropdown()}
                  onBlur={() => combobox.closeDropdown()}
                  error={form.errors.clientId}
                  data-testid="client-search"
                />
              </Combobox.Target>
              <Combobox.Dropdown hidden={!debounced}>
                <Combobox.Options>
                  {(found.data?.items ?? []).map((c) => (
                    <Combobox.Option value={c.id} key={c.id}>
                      <Text size="sm">
                        <UserText>{c.name}</UserText>
                      </Text>
                      <Text size="xs" c="dimmed">
                        <UserText>{c.contacts.map((x) => x.channelName).join(', ')}</UserText>
                      </Text>
                    </Combobox.Option>
                  ))}
                  {found.data && found.data.items.length === 0 && (
                    <Combobox.Empty>{t('workspace.clientNotFound')}</Combobox.Empty>
                  )}
                </Combobox.Options>
              </Combobox.Dropdown>
            </Combobox>
            {chosen &&
              (channels.length ? (
                <Radio.Group label={t('workspace.channel')} withAsterisk {...form.getInputProps('channelId')}>
                  <Stack gap={6} mt={6}>
                    {channels.map((c) => (
                      <Radio
                        key={c.channelId}
                        value={c.channelId}
                        label={`${c.channelName} · ${c.username ? `@${c.username}` : c.externalId}`}
                      />
                    ))}
                  </Stack>
                </Radio.Group>
              ) : (
                <Alert icon={<IconInfoCircle size={16} />} color="yellow" variant="light">
                  {t('workspace.noStartChannel')}
                </Alert>
              ))}
            <Textarea
              label={t('workspace.message')}
              withAsterisk
              autosize
              minRows={3}
              maxRows={10}
              {...form.getInputProps('text')}
              data-testid="create-chat-text"
            />
            <Button type="submit" loading={start.isPending} style={{ alignSelf: 'flex-start' }}>
              {t('workspace.start')}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

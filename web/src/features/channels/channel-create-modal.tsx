import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { type ChannelCreatedDto, channelCreateSchema } from '@smartconnect/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../shared/api/errors.ts';
import { translateField } from '../../shared/i18n/index.ts';
import { notifyError } from '../../shared/notify.ts';
import { useTeams } from '../teams/api.ts';
import { type ApiChannelInput, createApiChannel } from './api.ts';

type Errors = Partial<Record<keyof ApiChannelInput, string>>;

/** Creates an API channel (name, team, webhook URL), validated with the server's schema. */
export function ChannelCreateModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (c: ChannelCreatedDto) => void;
}) {
  const { t } = useTranslation();
  const teams = useTeams();
  const [values, setValues] = useState<ApiChannelInput>({ name: '', teamId: '', webhookUrl: '' });
  const [errors, setErrors] = useState<Errors>({});
  const create = useMutation({
    mutationFn: createApiChannel,
    meta: { form: true },
    onSuccess: (c) => {
      setValues({ name: '', teamId: '', webhookUrl: '' });
      onCreated(c);
    },
    onError: (err) => {
      if (isApiError(err) && err.fields)
        setErrors(Object.fromEntries(Object.entries(err.fields).map(([k, v]) => [k, translateField(v)])));
      else if (isApiError(err) && err.status > 0) notifyError(err.code);
    },
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = channelCreateSchema.safeParse({ type: 'api', ...values });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof ApiChannelInput;
        next[key] ??= translateField(issue.message);
      }
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(values);
  };
  const set = (k: keyof ApiChannelInput) => (v: string) => setValues((s) => ({ ...s, [k]: v }));
  return (
    <Modal opened={opened} onClose={onClose} title={t('channels.createTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('channels.name')}
            required
            data-autofocus
            value={values.name}
            error={errors.name}
            onChange={(e) => set('name')(e.currentTarget.value)}
          />
          <Select
            label={t('channels.team')}
            required
            searchable
            data={(teams.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
            value={values.teamId || null}
            error={errors.teamId}
            onChange={(v) => set('teamId')(v ?? '')}
          />
          <TextInput
            label={t('channels.webhookUrl')}
            description={t('channels.webhookHint')}
            required
            placeholder="https://example.com/smartconnect"
            value={values.webhookUrl}
            error={errors.webhookUrl}
            onChange={(e) => set('webhookUrl')(e.currentTarget.value)}
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

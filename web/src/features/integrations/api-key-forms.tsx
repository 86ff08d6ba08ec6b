import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  API_KEY_LIMITS,
  API_SCOPES,
  type ApiKeyCreatedDto,
  type ApiKeyDto,
  type ApiScope,
  apiKeyCreateSchema,
} from '@smartconnect/contracts';
import { IconKey } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { Copyable } from '../channels/channel-key-modal.tsx';
import { createApiKey, rotateApiKey } from './api-keys-api.ts';
import { apiKeyKeys } from './keys.ts';

/** The areas a key may reach, each with its read and write scope (users: read only). */
const AREAS = [...new Set(API_SCOPES.map((s) => s.split(':')[0]))] as string[];

type Values = { name: string; scopes: ApiScope[] };

/** A new key: its name and scopes (area by area, read and write); answered with the key, shown once. */
export function CreateKeyModal({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (k: ApiKeyCreatedDto) => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm<Values>({
    initialValues: { name: '', scopes: [] },
    validate: zodValidate(apiKeyCreateSchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: Values) => createApiKey({ name: v.name.trim(), scopes: v.scopes }),
    onSuccess: async (made) => {
      await client.invalidateQueries({ queryKey: apiKeyKeys.all });
      onCreated(made);
    },
    onError: (err) => showServerErrors(form, err),
  });
  const toggle = (scope: ApiScope, on: boolean) =>
    form.setFieldValue(
      'scopes',
      on ? [...form.values.scopes, scope] : form.values.scopes.filter((s) => s !== scope),
    );
  const scopesError =
    form.errors.scopes ?? Object.entries(form.errors).find(([k]) => k.startsWith('scopes.'))?.[1];
  return (
    <Modal opened onClose={onClose} title={t('integrations.newKeyTitle')} size="lg">
      <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
        <Stack gap="md">
          <TextInput
            label={t('integrations.keyName')}
            description={t('integrations.keyNameHint')}
            maxLength={API_KEY_LIMITS.nameMax}
            withAsterisk
            data-autofocus
            data-testid="api-key-name"
            {...form.getInputProps('name')}
          />
          <Checkbox.Group
            label={t('integrations.scopes')}
            description={t('integrations.scopesHint')}
            withAsterisk
            error={scopesError}
            value={form.values.scopes}
          >
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
              {AREAS.map((area) => (
                <Stack key={area} gap={4} data-testid={`api-key-area-${area}`}>
                  <Text size="sm" fw={600}>
                    {t(`integrations.areas.${area}`)}
                  </Text>
                  <Group gap="md">
                    {API_SCOPES.filter((s) => s.startsWith(`${area}:`)).map((scope) => (
                      <Checkbox
                        key={scope}
                        value={scope}
                        label={t(`integrations.access.${scope.split(':')[1]}`)}
                        aria-label={`${t(`integrations.areas.${area}`)}: ${t(`integrations.access.${scope.split(':')[1]}`)}`}
                        checked={form.values.scopes.includes(scope)}
                        onChange={(e) => toggle(scope, e.currentTarget.checked)}
                      />
                    ))}
                  </Group>
                </Stack>
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <FormActions onClose={onClose} readOnly={false} creating pending={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}

/** The key itself, after creation or rotation: shown this once, with a copy button. */
export function KeyShownModal({ made, onClose }: { made: ApiKeyCreatedDto; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('integrations.keyShownTitle')}
      size="lg"
      closeOnClickOutside={false}
    >
      <Stack>
        <Alert color="orange" variant="light" icon={<IconKey size={18} />}>
          {t('integrations.keyShownText')}
        </Alert>
        <Copyable label={made.name} value={made.key} testId="api-key-value" />
        <Text size="sm" c="dimmed">
          {t('integrations.keyUsage')}
        </Text>
        <Group justify="flex-end">
          <Button onClick={onClose} data-testid="api-key-done">
            {t('integrations.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

const OVERLAPS = [0, 1, 24, 72, 168] as const;

/** Rotation: a new key; the old one keeps working for the chosen overlap, so the integration can switch. */
export function RotateKeyModal({
  apiKey,
  onClose,
  onRotated,
}: {
  apiKey: ApiKeyDto;
  onClose: () => void;
  onRotated: (k: ApiKeyCreatedDto) => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [overlap, setOverlap] = useState<string>(String(API_KEY_LIMITS.overlapHoursDefault));
  const rotate = useMutation({
    mutationFn: () => rotateApiKey(apiKey.id, Number(overlap)),
    onSuccess: async (made) => {
      await client.invalidateQueries({ queryKey: apiKeyKeys.all });
      onRotated(made);
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('integrations.rotateTitle', { name: apiKey.name })} size="md">
      <Stack>
        <Text size="sm">{t('integrations.rotateText')}</Text>
        <Select
          label={t('integrations.overlap')}
          data={OVERLAPS.map((h) => ({
            value: String(h),
            label: h === 0 ? t('integrations.overlapNone') : t('integrations.overlapHours', { count: h }),
          }))}
          value={overlap}
          onChange={(v) => v && setOverlap(v)}
          allowDeselect={false}
          data-testid="api-key-overlap"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            onClick={() => rotate.mutate()}
            loading={rotate.isPending}
            data-testid="api-key-rotate-confirm"
          >
            {t('integrations.rotate')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

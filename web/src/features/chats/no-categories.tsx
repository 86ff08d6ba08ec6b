import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { categorySchema } from '@smartconnect/contracts';
import { IconCategory } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../shared/api/errors.ts';
import { translateError, translateField, useTranslation } from '../../shared/i18n/index.ts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { useAccess } from '../../shared/session.tsx';
import { categoryKeys } from '../categories/keys.ts';
import { createCategory } from './api.ts';

/**
 * OPTION_CATEGORY is on but the organisation has no request category, so no chat can close yet: says so,
 * and a holder of AUTHORITY_CHAT_SESSION_CATEGORY adds the first category right here (then it is chosen).
 */
export function NoCategories({ onCreated }: { onCreated: (id: string) => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const canCreate = useAccess().can('AUTHORITY_CHAT_SESSION_CATEGORY');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: createCategory,
    meta: { form: true },
    onSuccess: async (c) => {
      notifySuccess(t('chat.categoryCreated'));
      await client.invalidateQueries({ queryKey: categoryKeys.all });
      onCreated(c.id);
    },
    onError: (err) => {
      if (!isApiError(err) || err.status === 0 || err.code === 'unauthorizedException') return;
      if (err.fields?.name) setError(translateField(err.fields.name) ?? null);
      else if (err.code === 'categoryNameAlreadyExistsException') setError(translateError(err.code));
      else notifyError(err.code);
    },
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = categorySchema.safeParse({ name });
    if (!parsed.success) setError(translateField(parsed.error.issues[0]?.message) ?? null);
    else create.mutate(parsed.data.name);
  };
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconCategory size={20} />}
      title={t('chat.noCategoriesTitle')}
      data-testid="no-categories"
    >
      <Stack gap="sm">
        <Text size="sm">{t(canCreate ? 'chat.noCategoriesCreate' : 'chat.noCategoriesAsk')}</Text>
        {canCreate && (
          <form onSubmit={submit} noValidate>
            <Group align="flex-start" gap="xs" wrap="wrap">
              <TextInput
                label={t('chat.newCategory')}
                withAsterisk
                value={name}
                onChange={(e) => {
                  setName(e.currentTarget.value);
                  setError(null);
                }}
                error={error}
                style={{ flex: '1 1 180px' }}
              />
              <Button type="submit" variant="light" mt={25} loading={create.isPending}>
                {t('chat.addCategory')}
              </Button>
            </Group>
          </form>
        )}
      </Stack>
    </Alert>
  );
}

import { Button, Group, Paper, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { passwordChangeSchema } from '@smartconnect/contracts';
import { useMutation } from '@tanstack/react-query';
import { post } from '../../shared/api/client.ts';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { setToken } from '../../shared/storage.ts';

type Values = { oldPassword: string; password: string; repeatPassword: string };

export function PasswordCard() {
  const { t } = useTranslation();
  const form = useForm<Values>({
    initialValues: { oldPassword: '', password: '', repeatPassword: '' },
    validate: zodValidate(passwordChangeSchema),
  });
  const change = useMutation({
    meta: { form: true },
    mutationFn: (v: Values) => post<{ token: string }>('/api/auth/acc/passwordChange', v),
    // Every old token is revoked by the change: keep working with the new one.
    onSuccess: (r) => {
      setToken(r.token);
      form.reset();
      notifySuccess(t('profile.passwordChanged'));
    },
    onError: (err) => showServerErrors(form, err),
  });
  return (
    <Paper p="xl">
      <form noValidate onSubmit={form.onSubmit((v) => change.mutate(v))}>
        <Stack gap="md">
          <div>
            <Title order={4}>{t('profile.passwordTitle')}</Title>
            <Text size="sm" c="dimmed">
              {t('profile.passwordHint')}
            </Text>
          </div>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <PasswordInput
              label={t('profile.oldPassword')}
              withAsterisk
              autoComplete="current-password"
              {...form.getInputProps('oldPassword')}
            />
            <PasswordInput
              label={t('profile.newPassword')}
              withAsterisk
              autoComplete="new-password"
              {...form.getInputProps('password')}
            />
            <PasswordInput
              label={t('profile.repeatPassword')}
              withAsterisk
              autoComplete="new-password"
              {...form.getInputProps('repeatPassword')}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              {t('profile.changePassword')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

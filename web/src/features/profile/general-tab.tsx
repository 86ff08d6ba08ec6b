import {
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { accountUpdateSchema, type Language } from '@smartconnect/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { patch } from '../../shared/api/client.ts';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { setLanguage, storedLanguage, useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { ME_KEY, useCurrentUser } from '../../shared/session.tsx';
import { AvatarDrop } from '../../shared/ui/avatar-drop.tsx';
import { removePhoto, uploadPhoto } from '../users/api.ts';

type Values = { name: string; phone: string; breakTimeoutMinutes: number | string; language: Language };
const toBody = (v: Values) => ({
  name: v.name,
  phone: v.phone.trim() === '' ? null : v.phone.trim(),
  breakTimeoutMinutes: v.breakTimeoutMinutes === '' ? null : Number(v.breakTimeoutMinutes),
  language: v.language,
});

/** Profile -> general: name, phone, avatar, break timeout, language. */
export function GeneralTab() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const client = useQueryClient();
  const form = useForm<Values>({
    initialValues: {
      name: me.name,
      phone: me.phone ?? '',
      breakTimeoutMinutes: me.breakTimeoutMinutes ?? '',
      language: storedLanguage(),
    },
    validate: zodValidate(accountUpdateSchema, toBody),
  });
  const refresh = () => client.invalidateQueries({ queryKey: ME_KEY });
  const save = useMutation({
    meta: { form: true, identity: true },
    mutationFn: (v: Values) => patch('/api/auth/acc/update', toBody(v)),
    onSuccess: async (_r, v) => {
      await setLanguage(v.language);
      notifySuccess(t('profile.saved'));
      form.resetDirty();
      await refresh();
    },
    onError: (err) => showServerErrors(form, err),
  });
  const photo = useMutation({
    mutationFn: (file: File | null) =>
      file ? uploadPhoto('/api/auth/acc/photo', file) : removePhoto('/api/auth/acc/photo'),
    onSuccess: async () => {
      notifySuccess(t('avatar.changed'));
      await refresh();
    },
  });
  return (
    <Paper p="xl">
      <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
        <Stack gap="lg">
          <Title order={4}>{t('profile.generalTitle')}</Title>
          <AvatarDrop
            name={me.name}
            photoUrl={me.photoUrl}
            busy={photo.isPending}
            onFile={(f) => photo.mutate(f)}
            onRemove={() => photo.mutate(null)}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput label={t('profile.name')} withAsterisk {...form.getInputProps('name')} />
            <TextInput label={t('profile.email')} value={me.email} disabled readOnly />
            <TextInput
              label={t('profile.phone')}
              description={t('users.phoneHint')}
              {...form.getInputProps('phone')}
            />
            <NumberInput
              label={t('profile.breakTimeout')}
              description={t('profile.breakTimeoutHint')}
              allowDecimal={false}
              allowNegative={false}
              hideControls
              {...form.getInputProps('breakTimeoutMinutes')}
            />
            <Select
              label={t('profile.language')}
              allowDeselect={false}
              data-testid="profile-language"
              data={[
                { value: 'eng', label: t('languages.eng') },
                { value: 'rus', label: t('languages.rus') },
              ]}
              {...form.getInputProps('language')}
            />
          </SimpleGrid>
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              {t('common.requiredHint')}
            </Text>
            <Button type="submit" loading={save.isPending}>
              {t('common.saveChanges')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

import { Drawer, MultiSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { KB_LIMITS, type KbCategoryDto, kbCategoryCreateSchema } from '@smartconnect/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { useTeams } from '../teams/api.ts';
import { createKbCategory, type KbCategoryInput, updateKbCategory } from './api.ts';
import { kbKeys } from './keys.ts';

type Props = { opened: boolean; category: KbCategoryDto | null; onClose: () => void };

/** Create or edit a knowledge-base category: its name and the teams that read its articles. */
export function KbCategoryDrawer({ opened, category, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={t(category ? 'kb.editCategoryTitle' : 'kb.newCategoryTitle')}
      styles={{ title: { fontWeight: 650, fontSize: 20 } }}
    >
      {opened && <Editor key={category?.id ?? 'new'} category={category} onClose={onClose} />}
    </Drawer>
  );
}

function Editor({ category, onClose }: Omit<Props, 'opened'>) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const teams = useTeams();
  const form = useForm<KbCategoryInput>({
    initialValues: { name: category?.name ?? '', teamIds: category?.teams.map((x) => x.id) ?? [] },
    validate: zodValidate(kbCategoryCreateSchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: KbCategoryInput) => (category ? updateKbCategory(category.id, v) : createKbCategory(v)),
    onSuccess: async () => {
      notifySuccess(t(category ? 'kb.categoryChanged' : 'kb.categoryCreated'));
      await client.invalidateQueries({ queryKey: kbKeys.categories });
      await client.invalidateQueries({ queryKey: kbKeys.articlesAll });
      onClose();
    },
    onError: (err) => showServerErrors(form, err),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="md">
        <TextInput
          label={t('kb.categoryName')}
          withAsterisk
          maxLength={KB_LIMITS.categoryNameMax}
          data-testid="kb-category-name"
          {...form.getInputProps('name')}
        />
        <MultiSelect
          label={t('kb.teams')}
          placeholder={t('kb.teamsPlaceholder')}
          withAsterisk
          searchable
          data={(teams.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
          nothingFoundMessage={t('kb.noTeamFound')}
          data-testid="kb-category-teams"
          {...form.getInputProps('teamIds')}
        />
        <FormActions onClose={onClose} readOnly={false} creating={!category} pending={save.isPending} />
      </Stack>
    </form>
  );
}

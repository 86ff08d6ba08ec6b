import { Drawer, MultiSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  TEMPLATE_LIMITS,
  type TemplateCategoryDto,
  templateCategoryCreateSchema,
} from '@smartconnect/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { useTeams } from '../teams/api.ts';
import { type CategoryInput, createCategory, updateCategory } from './api.ts';
import { templateKeys } from './keys.ts';

type Props = { opened: boolean; category: TemplateCategoryDto | null; onClose: () => void };

/** Create or edit a template category: its name and the teams whose members may use its templates. */
export function CategoryDrawer({ opened, category, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={t(category ? 'templates.editCategoryTitle' : 'templates.newCategoryTitle')}
      styles={{ title: { fontWeight: 650, fontSize: 20 } }}
    >
      {opened && <CategoryEditor key={category?.id ?? 'new'} category={category} onClose={onClose} />}
    </Drawer>
  );
}

function CategoryEditor({ category, onClose }: Omit<Props, 'opened'>) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const teams = useTeams();
  const form = useForm<CategoryInput>({
    initialValues: { name: category?.name ?? '', teamIds: category?.teams.map((x) => x.id) ?? [] },
    validate: zodValidate(templateCategoryCreateSchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: CategoryInput) => (category ? updateCategory(category.id, v) : createCategory(v)),
    onSuccess: async () => {
      notifySuccess(t(category ? 'templates.categoryChanged' : 'templates.categoryCreated'));
      await client.invalidateQueries({ queryKey: templateKeys.categories });
      await client.invalidateQueries({ queryKey: templateKeys.all });
      onClose();
    },
    onError: (err) => showServerErrors(form, err),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="md">
        <TextInput
          label={t('templates.categoryName')}
          withAsterisk
          maxLength={TEMPLATE_LIMITS.categoryNameMax}
          data-testid="category-name"
          {...form.getInputProps('name')}
        />
        <MultiSelect
          label={t('templates.teams')}
          placeholder={t('templates.teamsPlaceholder')}
          withAsterisk
          searchable
          data={(teams.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
          nothingFoundMessage={t('templates.noTeamFound')}
          data-testid="category-teams"
          {...form.getInputProps('teamIds')}
        />
        <FormActions onClose={onClose} readOnly={false} creating={!category} pending={save.isPending} />
      </Stack>
    </form>
  );
}

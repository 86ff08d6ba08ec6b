import { MultiSelect, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { CATEGORY_NAME_MAX, type CategoryDto } from '@smartconnect/contracts';
import { isApiError } from '../../shared/api/errors.ts';
import { isolate } from '../../shared/bidi.ts';
import { showServerErrors } from '../../shared/form.ts';
import { translateError, useTranslation } from '../../shared/i18n/index.ts';
import { useTeams } from '../teams/api.ts';

export type CategoryFormValues = { name: string; teamIds: string[] };

/**
 * Name and teams available of a category, theme or subtheme. A node under `parent` offers only the teams its
 * parent may be used by; empty means the same as the parent (at the top: every team).
 */
export function CategoryFields({
  form,
  parent,
  autoFocus,
}: {
  form: UseFormReturnType<CategoryFormValues>;
  parent: CategoryDto | null;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const teams = useTeams();
  const allowed = parent?.availableTeamIds ?? null;
  const data = (teams.data ?? [])
    .filter((team) => allowed === null || allowed.includes(team.id))
    .map((team) => ({ value: team.id, label: team.name }));
  return (
    <Stack gap="md">
      <TextInput
        label={t('requestCategories.name')}
        withAsterisk
        maxLength={CATEGORY_NAME_MAX + 1}
        data-autofocus={autoFocus || undefined}
        {...form.getInputProps('name')}
      />
      <MultiSelect
        label={t('requestCategories.teams')}
        description={
          parent
            ? t('requestCategories.teamsHintChild', { parent: isolate(parent.name) })
            : t('requestCategories.teamsHintTop')
        }
        placeholder={form.values.teamIds.length ? undefined : t('requestCategories.teamsPlaceholder')}
        searchable
        clearable
        data={data}
        nothingFoundMessage={t('chat.nothingFound')}
        comboboxProps={{ withinPortal: true }}
        {...form.getInputProps('teamIds')}
      />
    </Stack>
  );
}

/** A refused save: a sibling of that name goes under the name field, field errors under theirs, the rest a toast. */
export function showCategoryErrors(form: UseFormReturnType<CategoryFormValues>, err: unknown) {
  if (
    isApiError(err) &&
    (err.code === 'categoryNameAlreadyExistsException' || err.code === 'subcategoryAlreadyExistsException')
  ) {
    form.setFieldError('name', translateError(err.code));
    return;
  }
  showServerErrors(form, err);
}

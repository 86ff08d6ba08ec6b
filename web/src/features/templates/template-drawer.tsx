import { Drawer, Select, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  TEMPLATE_LIMITS,
  TEMPLATE_VARIABLES,
  type TemplateCategoryDto,
  type TemplateDto,
  templateCreateSchema,
} from '@smartconnect/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { createTemplate, type TemplateInput, updateTemplate } from './api.ts';
import { templateKeys } from './keys.ts';
import { VariableTextField } from './variable-text-field.tsx';

type Props = {
  opened: boolean;
  template: TemplateDto | null;
  categories: TemplateCategoryDto[];
  onClose: () => void;
};

/** Create or edit a template: its category (§5: one must be chosen) and text, with variables inserted as chips. */
export function TemplateDrawer({ opened, template, categories, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={t(template ? 'templates.editTitle' : 'templates.newTitle')}
      styles={{ title: { fontWeight: 650, fontSize: 20 } }}
    >
      {opened && (
        <TemplateEditor
          key={template?.id ?? 'new'}
          template={template}
          categories={categories}
          onClose={onClose}
        />
      )}
    </Drawer>
  );
}

function TemplateEditor({ template, categories, onClose }: Omit<Props, 'opened'>) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm<TemplateInput>({
    initialValues: { text: template?.text ?? '', categoryId: template?.category.id ?? '' },
    validate: zodValidate(templateCreateSchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: TemplateInput) => (template ? updateTemplate(template.id, v) : createTemplate(v)),
    onSuccess: async () => {
      notifySuccess(t(template ? 'templates.changed' : 'templates.created'));
      await client.invalidateQueries({ queryKey: templateKeys.all });
      await client.invalidateQueries({ queryKey: templateKeys.categories });
      onClose();
    },
    onError: (err) => showServerErrors(form, err),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="md">
        <Select
          label={t('templates.category')}
          placeholder={t('templates.categoryPlaceholder')}
          withAsterisk
          searchable
          data={categories.map((c) => ({ value: c.id, label: c.name }))}
          nothingFoundMessage={t('templates.notFound')}
          data-testid="template-category"
          {...form.getInputProps('categoryId')}
          value={form.values.categoryId || null}
          onChange={(v) => form.setFieldValue('categoryId', v ?? '')}
        />
        <VariableTextField
          label={t('templates.text')}
          hint={t('templates.variablesHint')}
          value={form.values.text}
          onChange={(text) => form.setFieldValue('text', text)}
          inputProps={form.getInputProps('text')}
          variables={TEMPLATE_VARIABLES}
          maxLength={TEMPLATE_LIMITS.textMax}
          maxRows={12}
          testId="template"
        />
        <FormActions onClose={onClose} readOnly={false} creating={!template} pending={save.isPending} />
      </Stack>
    </form>
  );
}

import { Button, Drawer, Group, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  placeholder,
  TEMPLATE_LIMITS,
  TEMPLATE_VARIABLES,
  type TemplateCategoryDto,
  type TemplateDto,
  type TemplateVariable,
  templateCreateSchema,
} from '@smartconnect/contracts';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { createTemplate, type TemplateInput, updateTemplate } from './api.ts';
import { templateKeys } from './keys.ts';
import { TemplateText } from './template-text.tsx';

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
  const area = useRef<HTMLTextAreaElement>(null);
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
  const insert = (v: TemplateVariable) => {
    const token = placeholder(v);
    const text = form.values.text;
    const el = area.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    form.setFieldValue('text', text.slice(0, start) + token + text.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  };
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
        <Textarea
          ref={area}
          label={t('templates.text')}
          withAsterisk
          autosize
          minRows={4}
          maxRows={12}
          maxLength={TEMPLATE_LIMITS.textMax}
          data-testid="template-text"
          {...form.getInputProps('text')}
        />
        <div>
          <Text size="sm" fw={500} id="template-variables">
            {t('templates.variables')}
          </Text>
          <Text size="xs" c="gray.7" mb={6}>
            {t('templates.variablesHint')}
          </Text>
          <Group gap={6} role="group" aria-labelledby="template-variables">
            {TEMPLATE_VARIABLES.map((v) => (
              <Button
                key={v}
                size="compact-sm"
                variant="light"
                radius="xl"
                leftSection={<IconPlus size={14} aria-hidden />}
                aria-label={t('templates.insertVariable', { name: t(`templates.variable.${v}`) })}
                onClick={() => insert(v)}
                data-testid={`insert-${v}`}
              >
                {t(`templates.variable.${v}`)}
              </Button>
            ))}
          </Group>
        </div>
        {form.values.text.trim() && (
          <Paper withBorder p="sm" bg="gray.0">
            <Text size="xs" c="gray.7" mb={4}>
              {t('templates.preview')}
            </Text>
            <Text
              size="sm"
              style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              data-testid="template-preview"
            >
              <TemplateText text={form.values.text} />
            </Text>
          </Paper>
        )}
        <FormActions onClose={onClose} readOnly={false} creating={!template} pending={save.isPending} />
      </Stack>
    </form>
  );
}

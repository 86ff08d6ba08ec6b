import { Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type CategoryDto, categoryUpdateSchema } from '@smartconnect/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isolate } from '../../shared/bidi.ts';
import { zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { createCategory, updateCategory } from './api.ts';
import { CategoryFields, type CategoryFormValues, showCategoryErrors } from './category-fields.tsx';
import { categoryKeys } from './keys.ts';

/** What the modal edits: a new theme or subtheme under `parent`, or an existing `node` (with its parent). */
export type NodeTarget = { parent: CategoryDto; node: CategoryDto | null };

/** Adds or edits a theme or a subtheme of a category's page. */
export function NodeModal({ target, onClose }: { target: NodeTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const title = !target
    ? ''
    : target.node
      ? t('requestCategories.editNode', { name: isolate(target.node.name) })
      : t(target.parent.level === 1 ? 'requestCategories.newTheme' : 'requestCategories.newSubtheme', {
          parent: isolate(target.parent.name),
        });
  return (
    <Modal opened={!!target} onClose={onClose} title={title}>
      {target && (
        <NodeForm key={target.node?.id ?? `new-${target.parent.id}`} target={target} onClose={onClose} />
      )}
    </Modal>
  );
}

function NodeForm({ target, onClose }: { target: NodeTarget; onClose: () => void }) {
  const client = useQueryClient();
  const { t } = useTranslation();
  const form = useForm<CategoryFormValues>({
    initialValues: { name: target.node?.name ?? '', teamIds: target.node?.teamIds ?? [] },
    validate: zodValidate(categoryUpdateSchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: CategoryFormValues) =>
      target.node ? updateCategory(target.node.id, v) : createCategory({ ...v, parentId: target.parent.id }),
    onSuccess: async () => {
      notifySuccess(t(target.node ? 'requestCategories.changed' : 'requestCategories.created'));
      await client.invalidateQueries({ queryKey: categoryKeys.all });
      onClose();
    },
    onError: (err) => showCategoryErrors(form, err),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack>
        <CategoryFields form={form} parent={target.parent} autoFocus />
        <FormActions onClose={onClose} readOnly={false} creating={!target.node} pending={save.isPending} />
      </Stack>
    </form>
  );
}

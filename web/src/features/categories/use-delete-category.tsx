import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { CategoryDto } from '@smartconnect/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { deleteCategory } from './api.ts';
import { categoryKeys } from './keys.ts';

/** Deleting a category, theme or subtheme after a confirmation naming it (its themes and subthemes go with it). */
export function useDeleteCategory(onDeleted?: () => void) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: (node: CategoryDto) => deleteCategory(node.id),
    onSuccess: async () => {
      notifySuccess(t('requestCategories.deleted'));
      onDeleted?.();
      await client.invalidateQueries({ queryKey: categoryKeys.all });
    },
  });
  return (node: CategoryDto) =>
    modals.openConfirmModal({
      title: t('requestCategories.deleteTitle', { name: isolate(node.name) }),
      children: <Text size="sm">{t('requestCategories.deleteText', { name: isolate(node.name) })}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(node),
    });
}

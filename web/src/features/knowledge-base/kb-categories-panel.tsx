import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { KbCategoryDto } from '@smartconnect/contracts';
import { IconFolder, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { RowAction } from '../../shared/ui/list-table.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { deleteKbCategory } from './api.ts';
import { kbKeys } from './keys.ts';

type Props = { categories: KbCategoryDto[]; canEdit: boolean; onEdit: (c: KbCategoryDto | null) => void };

/** The knowledge-base categories with the teams that read them; add, edit, delete (with its articles, confirmed). */
export function KbCategoriesPanel({ categories, canEdit, onEdit }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: (c: KbCategoryDto) => deleteKbCategory(c.id),
    onSuccess: async () => {
      notifySuccess(t('kb.categoryDeleted'));
      await client.invalidateQueries({ queryKey: kbKeys.categories });
      await client.invalidateQueries({ queryKey: kbKeys.articlesAll });
    },
  });
  const confirmDelete = (c: KbCategoryDto) =>
    modals.openConfirmModal({
      title: t('kb.deleteCategoryTitle'),
      children: (
        <Text size="sm">{t('kb.deleteCategoryText', { name: isolate(c.name), count: c.articleCount })}</Text>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(c),
    });
  return (
    <Paper p="md" data-testid="kb-categories">
      <Group justify="space-between" mb="sm">
        <Text fw={650}>{t('kb.categories')}</Text>
        {canEdit && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => onEdit(null)}
            data-testid="kb-add-category"
          >
            {t('kb.addCategory')}
          </Button>
        )}
      </Group>
      {!categories.length ? (
        <Text size="sm" c="gray.7">
          {t('kb.noCategories')}
        </Text>
      ) : (
        <Stack gap={0}>
          {categories.map((c) => (
            <Group
              key={c.id}
              justify="space-between"
              wrap="nowrap"
              py={8}
              style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
              data-testid={`kb-category-${c.name}`}
            >
              <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
                <IconFolder size={18} aria-hidden color="var(--mantine-color-gray-7)" />
                <Text size="sm" fw={600}>
                  <UserText>{c.name}</UserText>
                </Text>
                <Text size="xs" c="gray.7">
                  {t('kb.articleCount', { count: c.articleCount })}
                </Text>
                {c.teams.map((team) => (
                  <Badge key={team.id} size="sm" variant="light" color="gray" tt="none">
                    <UserText>{team.name}</UserText>
                  </Badge>
                ))}
              </Group>
              {canEdit && (
                <Group gap={4} wrap="nowrap">
                  <RowAction
                    label={t('kb.editCategory', { name: isolate(c.name) })}
                    icon={<IconPencil size={18} />}
                    onClick={() => onEdit(c)}
                  />
                  <RowAction
                    label={t('kb.deleteCategory', { name: isolate(c.name) })}
                    color="red"
                    icon={<IconTrash size={18} />}
                    onClick={() => confirmDelete(c)}
                  />
                </Group>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

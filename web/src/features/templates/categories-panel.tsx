import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TemplateCategoryDto } from '@smartconnect/contracts';
import { IconFolder, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { RowAction } from '../../shared/ui/list-table.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { deleteCategory } from './api.ts';
import { templateKeys } from './keys.ts';

type Props = {
  categories: TemplateCategoryDto[];
  canEdit: boolean;
  onEdit: (c: TemplateCategoryDto | null) => void;
};

/** The template categories with the teams that may use them; add, edit, delete (with its templates, confirmed). */
export function CategoriesPanel({ categories, canEdit, onEdit }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: (c: TemplateCategoryDto) => deleteCategory(c.id),
    onSuccess: async () => {
      notifySuccess(t('templates.categoryDeleted'));
      await client.invalidateQueries({ queryKey: templateKeys.categories });
      await client.invalidateQueries({ queryKey: templateKeys.all });
    },
  });
  const confirmDelete = (c: TemplateCategoryDto) =>
    modals.openConfirmModal({
      title: t('templates.deleteCategoryTitle'),
      children: (
        <Text size="sm">
          {t('templates.deleteCategoryText', { name: isolate(c.name), count: c.templateCount })}
        </Text>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(c),
    });
  return (
    <Paper p="md" data-testid="template-categories">
      <Group justify="space-between" mb="sm">
        <Text fw={650}>{t('templates.categories')}</Text>
        {canEdit && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => onEdit(null)}
            data-testid="add-category"
          >
            {t('templates.addCategory')}
          </Button>
        )}
      </Group>
      {!categories.length ? (
        <Text size="sm" c="gray.7">
          {t('templates.noCategories')}
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
              data-testid={`category-${c.name}`}
            >
              <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
                <IconFolder size={18} aria-hidden color="var(--mantine-color-gray-7)" />
                <Text size="sm" fw={600}>
                  <UserText>{c.name}</UserText>
                </Text>
                <Text size="xs" c="gray.7">
                  {t('templates.templateCount', { count: c.templateCount })}
                </Text>
                {c.teams.length ? (
                  c.teams.map((team) => (
                    <Badge key={team.id} size="sm" variant="light" color="gray" tt="none">
                      <UserText>{team.name}</UserText>
                    </Badge>
                  ))
                ) : (
                  <Badge size="sm" variant="light" color="red" tt="none">
                    {t('templates.noTeams')}
                  </Badge>
                )}
              </Group>
              {canEdit && (
                <Group gap={4} wrap="nowrap">
                  <RowAction
                    label={t('templates.editCategory', { name: isolate(c.name) })}
                    icon={<IconPencil size={18} />}
                    onClick={() => onEdit(c)}
                  />
                  <RowAction
                    label={t('templates.deleteCategory', { name: isolate(c.name) })}
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

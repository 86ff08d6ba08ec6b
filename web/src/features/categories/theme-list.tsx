import { Box, Group, Stack, Text } from '@mantine/core';
import type { CategoryDto } from '@smartconnect/contracts';
import { IconListTree, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { RowAction } from '../../shared/ui/list-table.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import type { NodeTarget } from './node-modal.tsx';
import { TeamNames } from './team-names.tsx';
import { useDeleteCategory } from './use-delete-category.tsx';

/** The themes of a category, each with its subthemes indented below it, with their actions. */
export function ThemeList({ category, onEdit }: { category: CategoryDto; onEdit: (t: NodeTarget) => void }) {
  const { t } = useTranslation();
  if (!category.children.length)
    return (
      <EmptyState
        icon={<IconListTree size={30} />}
        title={t('requestCategories.noThemes')}
        text={t('requestCategories.noThemesHint')}
      />
    );
  return (
    <Stack gap={0} role="list" aria-label={t('requestCategories.themesTitle')} data-testid="theme-list">
      {category.children.map((theme) => (
        <Box
          key={theme.id}
          role="listitem"
          py="xs"
          style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
        >
          <NodeRow node={theme} parent={category} onEdit={onEdit} />
          {theme.children.length > 0 && (
            <Stack gap={0} pl={{ base: 'md', sm: 'xl' }} role="list" aria-label={theme.name}>
              {theme.children.map((sub) => (
                <Box key={sub.id} role="listitem" pt={6}>
                  <NodeRow node={sub} parent={theme} onEdit={onEdit} />
                </Box>
              ))}
            </Stack>
          )}
        </Box>
      ))}
    </Stack>
  );
}

function NodeRow({
  node,
  parent,
  onEdit,
}: {
  node: CategoryDto;
  parent: CategoryDto;
  onEdit: (t: NodeTarget) => void;
}) {
  const { t } = useTranslation();
  const confirmDelete = useDeleteCategory();
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs" data-testid={`node-${node.name}`}>
      <Box style={{ minWidth: 0 }}>
        <Text size="sm" fw={node.level === 2 ? 600 : 400}>
          <Text span size="xs" c="gray.7" mr={6}>
            {t(`requestCategories.level${node.level}`)}
          </Text>
          <UserText>{node.name}</UserText>
        </Text>
        <TeamNames node={node} />
      </Box>
      <Group gap={2} wrap="nowrap">
        {node.level === 2 && (
          <RowAction
            label={t('requestCategories.addSubtheme')}
            icon={<IconPlus size={18} />}
            onClick={() => onEdit({ parent: node, node: null })}
          />
        )}
        <RowAction
          label={t('common.edit')}
          icon={<IconPencil size={18} />}
          onClick={() => onEdit({ parent, node })}
        />
        <RowAction
          label={t('common.delete')}
          color="red"
          icon={<IconTrash size={18} />}
          onClick={() => confirmDelete(node)}
        />
      </Group>
    </Group>
  );
}

import { Button, Group, Paper, Table, Text, TextInput } from '@mantine/core';
import type { CategoryDto } from '@smartconnect/contracts';
import { IconCategory, IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable, RowAction } from '../../shared/ui/list-table.tsx';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { flatten, pathText, useCategoryTree } from './api.ts';
import { TeamNames } from './team-names.tsx';
import { useDeleteCategory } from './use-delete-category.tsx';

export const CATEGORIES_PATH = '/admin/preferences/categories';

/**
 * /admin/preferences/categories (§2.6): the request categories, each with how many themes and subthemes it has and
 * the teams it is available to; the search also finds themes and subthemes (shown under their category). A row
 * opens the category's page (categories/template/{id}); 'Add category' opens categories/template.
 */
export function CategoriesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tree = useCategoryTree(true);
  const [search, setSearch] = useState('');
  const confirmDelete = useDeleteCategory();
  const q = search.trim().toLocaleLowerCase();
  const rows = (tree.data ?? [])
    .map((top) => ({
      top,
      hits: q ? flatten(top.children).filter((n) => n.name.toLocaleLowerCase().includes(q)) : [],
    }))
    .filter(({ top, hits }) => !q || top.name.toLocaleLowerCase().includes(q) || hits.length > 0);
  const open = (c: CategoryDto) => navigate(`${CATEGORIES_PATH}/template/${c.id}`);
  return (
    <>
      <PageHeader
        title={t('requestCategories.title')}
        subtitle={t('requestCategories.subtitle')}
        actions={
          <Button component={Link} to={`${CATEGORIES_PATH}/template`} leftSection={<IconPlus size={18} />}>
            {t('requestCategories.add')}
          </Button>
        }
      />
      <Paper p={0}>
        <Group p="md" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <TextInput
            placeholder={t('requestCategories.search')}
            aria-label={t('requestCategories.search')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            w={340}
            maw="100%"
          />
        </Group>
        {tree.isLoading ? (
          <SectionLoader />
        ) : tree.isError && !tree.data ? (
          <ErrorState onRetry={() => void tree.refetch()} retrying={tree.isFetching} />
        ) : rows.length === 0 ? (
          <EmptyState
            icon={<IconCategory size={30} />}
            title={q ? t('requestCategories.notFound') : t('requestCategories.empty')}
            text={q ? undefined : t('requestCategories.emptyHint')}
          />
        ) : (
          <ListTable
            minWidth={620}
            testId="categories-table"
            headings={[
              t('requestCategories.colName'),
              t('requestCategories.colThemes'),
              t('requestCategories.colTeams'),
              { w: 90 },
            ]}
          >
            {rows.map(({ top, hits }) => (
              <Table.Tr
                key={top.id}
                className="sc-table-row"
                onClick={() => open(top)}
                data-testid={`category-${top.name}`}
              >
                <Table.Td maw={360}>
                  <Text size="sm" fw={600}>
                    <UserText>{top.name}</UserText>
                  </Text>
                  {hits.map((n) => (
                    <Text key={n.id} size="xs" c="gray.7">
                      <UserText>{pathText(n.path)}</UserText>
                    </Text>
                  ))}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{t('requestCategories.themesCount', { count: top.children.length })}</Text>
                  <Text size="xs" c="gray.7">
                    {t('requestCategories.subthemesCount', {
                      count: top.children.reduce((sum, th) => sum + th.children.length, 0),
                    })}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <TeamNames node={top} />
                </Table.Td>
                <Table.Td onClick={(e) => e.stopPropagation()}>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <RowAction
                      label={t('common.edit')}
                      icon={<IconPencil size={18} />}
                      onClick={() => open(top)}
                    />
                    <RowAction
                      label={t('common.delete')}
                      color="red"
                      icon={<IconTrash size={18} />}
                      onClick={() => confirmDelete(top)}
                    />
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </Paper>
    </>
  );
}

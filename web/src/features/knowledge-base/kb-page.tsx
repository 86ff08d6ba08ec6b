import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { KbArticleDto, KbCategoryDto } from '@smartconnect/contracts';
import { IconBook2, IconLock, IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable, RowAction } from '../../shared/ui/list-table.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useOrganisation } from '../templates/api.ts';
import { deleteKbArticle, useKbArticles, useKbCategories } from './api.ts';
import { KbArticleDrawer } from './kb-article-drawer.tsx';
import { KbCategoriesPanel } from './kb-categories-panel.tsx';
import { KbCategoryDrawer } from './kb-category-drawer.tsx';
import { kbKeys } from './keys.ts';

const matches = (a: KbArticleDto, q: string) =>
  !q || `${a.title}\n${a.category.name}`.toLocaleLowerCase().includes(q.toLocaleLowerCase());

/** Preferences -> Knowledge base: categories with their teams, articles with a filter, side-page editors, delete. */
export function KnowledgeBasePage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const articles = useKbArticles();
  const categories = useKbCategories();
  // Written with the templates right, so locked with the templates (§6 'team-template modification can be denied').
  const organisation = useOrganisation().data;
  const canEdit = !!organisation && !organisation.modifyDenied.includes('TEMPLATE');
  const [articleDrawer, setArticleDrawer] = useState<{ article: KbArticleDto | null } | null>(null);
  const [categoryDrawer, setCategoryDrawer] = useState<{ category: KbCategoryDto | null } | null>(null);
  const remove = useMutation({
    mutationFn: (x: KbArticleDto) => deleteKbArticle(x.id),
    onSuccess: async () => {
      notifySuccess(t('kb.deleted'));
      await client.invalidateQueries({ queryKey: kbKeys.articlesAll });
      await client.invalidateQueries({ queryKey: kbKeys.categories });
    },
  });
  const confirmDelete = (x: KbArticleDto) =>
    modals.openConfirmModal({
      title: t('kb.deleteTitle'),
      children: <Text size="sm">{t('kb.deleteText')}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(x),
    });
  const cats = categories.data ?? [];
  const all = articles.data ?? [];
  const items = all.filter((a) => matches(a, search.trim()));

  if (categories.isLoading || articles.isLoading) return <SectionLoader />;
  if ((categories.isError && !categories.data) || (articles.isError && !articles.data))
    return (
      <ErrorState
        onRetry={() => {
          void categories.refetch();
          void articles.refetch();
        }}
        retrying={categories.isFetching || articles.isFetching}
      />
    );
  return (
    <Stack gap="lg">
      {!canEdit && (
        <Alert variant="light" color="gray" icon={<IconLock size={18} />} data-testid="kb-locked">
          {t('kb.locked')}
        </Alert>
      )}
      <KbCategoriesPanel
        categories={cats}
        canEdit={canEdit}
        onEdit={(category) => setCategoryDrawer({ category })}
      />
      <Paper p={0}>
        <Group
          p="md"
          justify="space-between"
          style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
        >
          <TextInput
            placeholder={t('kb.filter')}
            aria-label={t('kb.filter')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            style={{ flex: 1, minWidth: 180, maxWidth: 360 }}
            data-testid="kb-filter"
          />
          {canEdit && (
            <Button
              leftSection={<IconPlus size={18} />}
              disabled={!cats.length}
              onClick={() => setArticleDrawer({ article: null })}
              data-testid="kb-add-article"
            >
              {t('kb.add')}
            </Button>
          )}
        </Group>
        {!items.length ? (
          all.length ? (
            <EmptyState
              icon={<IconSearch size={30} />}
              title={t('kb.notFound')}
              text={t('kb.notFoundHint')}
            />
          ) : (
            <EmptyState
              icon={<IconBook2 size={30} />}
              title={t('kb.emptyTitle')}
              text={t(cats.length ? 'kb.emptyText' : 'kb.noCategories')}
            />
          )
        ) : (
          <ListTable
            minWidth={560}
            testId="kb-table"
            headings={[
              t('kb.articleTitle'),
              t('kb.category'),
              t('kb.access'),
              ...(canEdit ? [{ w: 90 }] : []),
            ]}
          >
            {items.map((x) => (
              <Table.Tr key={x.id} data-testid="kb-row">
                <Table.Td maw={420}>
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    <UserText>{x.title}</UserText>
                  </Text>
                  <Text size="xs" c="gray.7" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                    <UserText>{x.body}</UserText>
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="gray.7">
                    <UserText>{x.category.name}</UserText>
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {x.public && (
                      <Badge size="sm" variant="light" color="teal" tt="none">
                        {t('kb.publicBadge')}
                      </Badge>
                    )}
                    {x.teams.length ? (
                      x.teams.map((team) => (
                        <Badge key={team.id} size="sm" variant="light" color="gray" tt="none">
                          <UserText>{team.name}</UserText>
                        </Badge>
                      ))
                    ) : (
                      <Text size="xs" c="gray.7">
                        {t('kb.categoryTeams')}
                      </Text>
                    )}
                  </Group>
                </Table.Td>
                {canEdit && (
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <RowAction
                        label={t('common.edit')}
                        icon={<IconPencil size={18} />}
                        onClick={() => setArticleDrawer({ article: x })}
                      />
                      <RowAction
                        label={t('common.delete')}
                        color="red"
                        icon={<IconTrash size={18} />}
                        onClick={() => confirmDelete(x)}
                      />
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </Paper>
      <KbArticleDrawer
        opened={!!articleDrawer}
        article={articleDrawer?.article ?? null}
        categories={cats}
        onClose={() => setArticleDrawer(null)}
      />
      <KbCategoryDrawer
        opened={!!categoryDrawer}
        category={categoryDrawer?.category ?? null}
        onClose={() => setCategoryDrawer(null)}
      />
    </Stack>
  );
}

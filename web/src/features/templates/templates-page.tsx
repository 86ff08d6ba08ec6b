import { Alert, Button, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import type { TemplateCategoryDto, TemplateDto } from '@smartconnect/contracts';
import { IconLock, IconMessageBolt, IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable, RowAction } from '../../shared/ui/list-table.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { deleteTemplate, useOrganisation, useTemplateCategories, useTemplates } from './api.ts';
import { CategoriesPanel } from './categories-panel.tsx';
import { CategoryDrawer } from './category-drawer.tsx';
import { templateKeys } from './keys.ts';
import { TemplateDrawer } from './template-drawer.tsx';
import { TemplateText } from './template-text.tsx';

/** Preferences -> Templates: categories with their teams, templates with search, add/edit side pages, delete. */
export function TemplatesPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const templates = useTemplates(debounced, { all: true });
  const categories = useTemplateCategories();
  // §6: the organisation's template changes may be denied; the templates stay usable in chats.
  const organisation = useOrganisation().data;
  const canEdit = !!organisation && !organisation.modifyDenied.includes('TEMPLATE');
  const [templateDrawer, setTemplateDrawer] = useState<{ template: TemplateDto | null } | null>(null);
  const [categoryDrawer, setCategoryDrawer] = useState<{ category: TemplateCategoryDto | null } | null>(null);
  const remove = useMutation({
    mutationFn: (x: TemplateDto) => deleteTemplate(x.id),
    onSuccess: async () => {
      notifySuccess(t('templates.deleted'));
      await client.invalidateQueries({ queryKey: templateKeys.all });
      await client.invalidateQueries({ queryKey: templateKeys.categories });
    },
  });
  const confirmDelete = (x: TemplateDto) =>
    modals.openConfirmModal({
      title: t('templates.deleteTitle'),
      children: <Text size="sm">{t('templates.deleteText')}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(x),
    });
  const cats = categories.data ?? [];
  const items = templates.data ?? [];

  if (categories.isLoading || (templates.isLoading && !templates.data)) return <SectionLoader />;
  if ((categories.isError && !categories.data) || (templates.isError && !templates.data))
    return (
      <ErrorState
        onRetry={() => {
          void categories.refetch();
          void templates.refetch();
        }}
        retrying={categories.isFetching || templates.isFetching}
      />
    );
  return (
    <Stack gap="lg">
      {!canEdit && (
        <Alert variant="light" color="gray" icon={<IconLock size={18} />} data-testid="templates-locked">
          {t('templates.locked')}
        </Alert>
      )}
      <CategoriesPanel
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
            placeholder={t('templates.search')}
            aria-label={t('templates.search')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            style={{ flex: 1, minWidth: 180, maxWidth: 360 }}
            data-testid="templates-search"
          />
          {canEdit && (
            <Button
              leftSection={<IconPlus size={18} />}
              disabled={!cats.length}
              onClick={() => setTemplateDrawer({ template: null })}
              data-testid="add-template"
            >
              {t('templates.add')}
            </Button>
          )}
        </Group>
        {!items.length ? (
          debounced ? (
            <EmptyState
              icon={<IconSearch size={30} />}
              title={t('templates.notFound')}
              text={t('templates.notFoundHint')}
            />
          ) : (
            <EmptyState
              icon={<IconMessageBolt size={30} />}
              title={t('templates.emptyTitle')}
              text={t(cats.length ? 'templates.emptyText' : 'templates.noCategories')}
            />
          )
        ) : (
          <ListTable
            minWidth={560}
            testId="templates-table"
            headings={[t('templates.text'), t('templates.category'), ...(canEdit ? [{ w: 90 }] : [])]}
          >
            {items.map((x) => (
              <Table.Tr key={x.id} data-testid="template-row">
                <Table.Td maw={480}>
                  <Text size="sm" lineClamp={3} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    <TemplateText text={x.text} />
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="gray.7">
                    <UserText>{x.category.name}</UserText>
                  </Text>
                </Table.Td>
                {canEdit && (
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <RowAction
                        label={t('common.edit')}
                        icon={<IconPencil size={18} />}
                        onClick={() => setTemplateDrawer({ template: x })}
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
      <TemplateDrawer
        opened={!!templateDrawer}
        template={templateDrawer?.template ?? null}
        categories={cats}
        onClose={() => setTemplateDrawer(null)}
      />
      <CategoryDrawer
        opened={!!categoryDrawer}
        category={categoryDrawer?.category ?? null}
        onClose={() => setCategoryDrawer(null)}
      />
    </Stack>
  );
}

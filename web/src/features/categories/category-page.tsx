import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type CategoryDto, categoryCreateSchema } from '@smartconnect/contracts';
import { IconArrowLeft, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { createCategory, updateCategory, useCategory } from './api.ts';
import { CATEGORIES_PATH } from './categories-page.tsx';
import { CategoryFields, type CategoryFormValues, showCategoryErrors } from './category-fields.tsx';
import { categoryKeys } from './keys.ts';
import { NodeModal, type NodeTarget } from './node-modal.tsx';
import { ThemeList } from './theme-list.tsx';
import { useDeleteCategory } from './use-delete-category.tsx';

/**
 * categories/template (a new category) and categories/template/{id} (§2.6): one category's page, its name and
 * teams available, then its themes and their subthemes, each added, edited and deleted in place.
 */
export function CategoryPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const category = useCategory(id);
  const back = (
    <Anchor component={Link} to={CATEGORIES_PATH} size="sm" mb="sm" display="inline-flex" style={{ gap: 4 }}>
      <IconArrowLeft size={16} aria-hidden /> {t('requestCategories.back')}
    </Anchor>
  );
  if (id && category.isLoading) return <SectionLoader />;
  if (id && !category.data)
    return (
      <>
        {back}
        <EmptyState icon={<IconTrash size={30} />} title={t('requestCategories.missing')} />
      </>
    );
  const node = category.data ?? null;
  return (
    <Stack gap="lg">
      <div>
        {back}
        <Title order={2} fz={26}>
          {node ? <UserText>{node.name}</UserText> : t('requestCategories.newTitle')}
        </Title>
      </div>
      <CategoryCard key={node?.updatedAt ?? 'new'} node={node} />
      {node && <Themes category={node} />}
    </Stack>
  );
}

function CategoryCard({ node }: { node: CategoryDto | null }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const confirmDelete = useDeleteCategory(() => navigate(CATEGORIES_PATH));
  const form = useForm<CategoryFormValues>({
    initialValues: { name: node?.name ?? '', teamIds: node?.teamIds ?? [] },
    validate: zodValidate(categoryCreateSchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: CategoryFormValues) => (node ? updateCategory(node.id, v) : createCategory(v)),
    onSuccess: async (saved) => {
      notifySuccess(t(node ? 'requestCategories.changed' : 'requestCategories.created'));
      await client.invalidateQueries({ queryKey: categoryKeys.all });
      if (!node) navigate(`${CATEGORIES_PATH}/template/${saved.id}`, { replace: true });
    },
    onError: (err) => showCategoryErrors(form, err),
  });
  return (
    <Paper p="lg">
      <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
        <Stack>
          <Title order={3} fz={18}>
            {t('requestCategories.categoryCard')}
          </Title>
          <CategoryFields form={form} parent={null} autoFocus={!node} />
          <Group justify="space-between" wrap="wrap">
            {node ? (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={() => confirmDelete(node)}
              >
                {t('requestCategories.deleteCategory')}
              </Button>
            ) : (
              <Button variant="default" component={Link} to={CATEGORIES_PATH}>
                {t('common.cancel')}
              </Button>
            )}
            <Button type="submit" loading={save.isPending}>
              {node ? t('common.saveChanges') : t('common.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function Themes({ category }: { category: CategoryDto }) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<NodeTarget | null>(null);
  return (
    <Paper p="lg">
      <Group justify="space-between" align="flex-start" mb="md" wrap="wrap">
        <div>
          <Title order={3} fz={18}>
            {t('requestCategories.themesTitle')}
          </Title>
          <Text size="sm" c="gray.7">
            {t('requestCategories.themesHint')}
          </Text>
        </div>
        <Button
          variant="light"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setTarget({ parent: category, node: null })}
        >
          {t('requestCategories.addTheme')}
        </Button>
      </Group>
      <ThemeList category={category} onEdit={setTarget} />
      <NodeModal target={target} onClose={() => setTarget(null)} />
    </Paper>
  );
}

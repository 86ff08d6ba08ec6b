import { Anchor, Drawer, MultiSelect, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  KB_LIMITS,
  type KbArticleDto,
  type KbCategoryDto,
  kbArticleCreateSchema,
} from '@smartconnect/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { useTeams } from '../teams/api.ts';
import { createKbArticle, type KbArticleInput, publicArticleUrl, updateKbArticle } from './api.ts';
import { kbKeys } from './keys.ts';

type Props = {
  opened: boolean;
  article: KbArticleDto | null;
  categories: KbCategoryDto[];
  onClose: () => void;
};

/** Create or edit an article: category (§5: one must be chosen), title, body, its own teams, public or not. */
export function KbArticleDrawer({ opened, article, categories, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={t(article ? 'kb.editTitle' : 'kb.newTitle')}
      styles={{ title: { fontWeight: 650, fontSize: 20 } }}
    >
      {opened && (
        <Editor key={article?.id ?? 'new'} article={article} categories={categories} onClose={onClose} />
      )}
    </Drawer>
  );
}

function Editor({ article, categories, onClose }: Omit<Props, 'opened'>) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const teams = useTeams();
  const form = useForm<KbArticleInput>({
    initialValues: {
      categoryId: article?.category.id ?? '',
      title: article?.title ?? '',
      body: article?.body ?? '',
      teamIds: article?.teams.map((x) => x.id) ?? [],
      public: article?.public ?? false,
    },
    validate: zodValidate(kbArticleCreateSchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: KbArticleInput) => (article ? updateKbArticle(article.id, v) : createKbArticle(v)),
    onSuccess: async () => {
      notifySuccess(t(article ? 'kb.changed' : 'kb.created'));
      await client.invalidateQueries({ queryKey: kbKeys.articlesAll });
      await client.invalidateQueries({ queryKey: kbKeys.categories });
      await client.invalidateQueries({ queryKey: kbKeys.searchAll });
      onClose();
    },
    onError: (err) => showServerErrors(form, err),
  });
  const url = article?.public && form.values.public ? publicArticleUrl(article) : null;
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="md">
        <Select
          label={t('kb.category')}
          placeholder={t('kb.categoryPlaceholder')}
          withAsterisk
          searchable
          data={categories.map((c) => ({ value: c.id, label: c.name }))}
          nothingFoundMessage={t('kb.notFound')}
          data-testid="kb-article-category"
          {...form.getInputProps('categoryId')}
          value={form.values.categoryId || null}
          onChange={(v) => form.setFieldValue('categoryId', v ?? '')}
        />
        <TextInput
          label={t('kb.articleTitle')}
          withAsterisk
          maxLength={KB_LIMITS.titleMax}
          data-testid="kb-article-title"
          {...form.getInputProps('title')}
        />
        <Textarea
          label={t('kb.body')}
          description={t('kb.bodyHint')}
          autosize
          minRows={8}
          maxRows={20}
          maxLength={KB_LIMITS.bodyMax}
          data-testid="kb-article-body"
          {...form.getInputProps('body')}
        />
        <MultiSelect
          label={t('kb.articleTeams')}
          description={t('kb.articleTeamsHint')}
          placeholder={t('kb.teamsPlaceholder')}
          searchable
          clearable
          data={(teams.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
          nothingFoundMessage={t('kb.noTeamFound')}
          data-testid="kb-article-teams"
          {...form.getInputProps('teamIds')}
        />
        <Switch
          label={t('kb.public')}
          description={t('kb.publicHint')}
          data-testid="kb-article-public"
          {...form.getInputProps('public', { type: 'checkbox' })}
        />
        {url && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t('kb.publicLink')}:{' '}
            <Anchor href={url} target="_blank" rel="noopener noreferrer" data-testid="kb-article-link">
              {url}
            </Anchor>
          </Text>
        )}
        <FormActions onClose={onClose} readOnly={false} creating={!article} pending={save.isPending} />
      </Stack>
    </form>
  );
}

import { Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { KbArticleDto } from '@smartconnect/contracts';
import { KB_LIMITS } from '@smartconnect/contracts';
import { IconLink, IconSearch, IconTextPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { publicArticleUrl, useKbSearch } from './api.ts';

/** What 'Insert text' puts in the message box: the article's body (its title when it has none). */
export const articleText = (a: KbArticleDto) => a.body.trim() || a.title;
/** What 'Insert link' puts there: the title and the public page's address. */
export const articleLink = (a: KbArticleDto) => `${a.title}: ${publicArticleUrl(a)}`;

/**
 * The knowledge-base search of the chat screen (side panel and composer): the articles the operator's teams may read,
 * best match first; each is inserted into the message box as text, or, when public, as a link to its page.
 */
export function KbSearch({
  onInsert,
  disabled,
  autoFocus,
  testId = 'kb-search',
}: {
  onInsert: (text: string) => void;
  disabled: boolean;
  autoFocus?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), 250);
  const results = useKbSearch(debounced);
  const items = debounced ? (results.data ?? []) : [];
  return (
    <Stack gap={6} data-testid={testId}>
      <TextInput
        size="xs"
        data-autofocus={autoFocus || undefined}
        leftSection={<IconSearch size={14} aria-hidden />}
        rightSection={results.isFetching ? <Loader size={12} aria-label={t('common.loading')} /> : null}
        placeholder={t('kb.searchPlaceholder')}
        aria-label={t('kb.searchPlaceholder')}
        maxLength={KB_LIMITS.searchMax}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        data-testid={`${testId}-input`}
      />
      {debounced && !results.isLoading && !items.length && (
        <Text size="xs" c="gray.7" data-testid={`${testId}-empty`}>
          {results.isError ? t('kb.searchFailed') : t('kb.nothingFound')}
        </Text>
      )}
      <Stack gap={8} role="list" aria-label={t('kb.results')}>
        {items.map((a) => (
          <Stack
            key={a.id}
            gap={4}
            role="listitem"
            p={8}
            style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}
            data-testid="kb-result"
          >
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              <UserText>{a.title}</UserText>
            </Text>
            <Text size="xs" c="gray.7">
              <UserText>{a.category.name}</UserText>
            </Text>
            {a.body && (
              <Text size="xs" lineClamp={3} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                <UserText>{a.body}</UserText>
              </Text>
            )}
            <Group gap={6}>
              <Button
                size="compact-xs"
                variant="light"
                leftSection={<IconTextPlus size={14} aria-hidden />}
                disabled={disabled}
                aria-label={t('kb.insertTextOf', { title: a.title })}
                onClick={() => onInsert(articleText(a))}
                data-testid="kb-insert-text"
              >
                {t('kb.insertText')}
              </Button>
              {a.publicPath && (
                <Button
                  size="compact-xs"
                  variant="light"
                  leftSection={<IconLink size={14} aria-hidden />}
                  disabled={disabled}
                  aria-label={t('kb.insertLinkOf', { title: a.title })}
                  onClick={() => onInsert(articleLink(a))}
                  data-testid="kb-insert-link"
                >
                  {t('kb.insertLink')}
                </Button>
              )}
            </Group>
          </Stack>
        ))}
      </Stack>
    </Stack>
  );
}

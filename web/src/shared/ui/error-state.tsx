import { Button } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from '../i18n/index.ts';
import { EmptyState } from './empty-state.tsx';

/** `title`: a list's own words for the failure (§8 'Channels or clients cannot be displayed'). */
type Props = { onRetry: () => void; retrying?: boolean; title?: string };

/** A list or form that could not load: says so (never "nothing found") and offers to try again. */
export function ErrorState({ onRetry, retrying, title }: Props) {
  const { t } = useTranslation();
  return (
    <div role="alert" data-testid="load-error">
      <EmptyState
        color="red"
        icon={<IconAlertTriangle size={30} />}
        title={title ?? t('common.loadFailed')}
        text={t('common.loadFailedHint')}
        action={
          <Button
            variant="light"
            leftSection={<IconRefresh size={16} />}
            loading={retrying}
            onClick={onRetry}
            mt="xs"
          >
            {t('common.retry')}
          </Button>
        }
      />
    </div>
  );
}

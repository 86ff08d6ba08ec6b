import { Badge, Paper } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useTranslation } from '../i18n/index.ts';
import { EmptyState } from './empty-state.tsx';

/** The "coming soon" state of a screen whose issue has not been built yet. */
export function ComingSoon({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const name = t(titleKey);
  return (
    <Paper p="xl" data-testid="coming-soon">
      <EmptyState
        icon={<IconSparkles size={30} />}
        title={name}
        text={t('pages.comingSoonText', { name })}
        action={
          <Badge variant="light" size="lg" mt="xs">
            {t('pages.comingSoonTitle')}
          </Badge>
        }
      />
    </Paper>
  );
}

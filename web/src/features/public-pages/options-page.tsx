import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLockSquareRounded } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAccess } from '../../app/session.tsx';

/** /admin/options: a feature outside the plan, with a change-plan action (§6). */
export function OptionsPage() {
  const { t } = useTranslation();
  const { can } = useAccess();
  return (
    <Paper p={48} maw={640} mx="auto" mt="xl">
      <Stack align="center" ta="center" gap="md">
        <ThemeIcon size={76} radius={76} variant="light" color="orange">
          <IconLockSquareRounded size={36} />
        </ThemeIcon>
        <Title order={2}>{t('pages.optionsTitle')}</Title>
        <Text c="dimmed">{t('pages.optionsText')}</Text>
        <Button
          component={Link}
          to={can('AUTHORITY_FINANCE') ? '/admin/finance/balance' : '/admin/preferences/plans'}
          size="md"
          mt="sm"
        >
          {t('pages.changePlan')}
        </Button>
      </Stack>
    </Paper>
  );
}

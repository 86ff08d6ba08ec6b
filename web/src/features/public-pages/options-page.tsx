import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { PLAN_OPTIONS, type PlanOption } from '@smartconnect/contracts/constants';
import { IconLockSquareRounded } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useAccess } from '../../shared/session.tsx';

const isOption = (v: string | null): v is PlanOption => PLAN_OPTIONS.includes(v as PlanOption);

/**
 * /admin/options?option=OPTION_...: names the feature outside the plan (§6). Changing the plan is a
 * finance matter: with AUTHORITY_FINANCE the action leads there, otherwise the administrator is asked.
 */
export function OptionsPage() {
  const { t } = useTranslation();
  const { can } = useAccess();
  const option = useSearchParams()[0].get('option');
  const finance = can('AUTHORITY_FINANCE');
  return (
    <Paper p={48} maw={640} mx="auto" mt="xl" data-testid="options-page">
      <Stack align="center" ta="center" gap="md">
        <ThemeIcon size={76} radius={76} variant="light" color="orange">
          <IconLockSquareRounded size={36} />
        </ThemeIcon>
        <Title order={2}>{t('pages.optionsTitle')}</Title>
        <Text fw={500} data-testid="options-feature">
          {isOption(option)
            ? t('pages.optionsFeature', { name: t(`planOptions.${option}`) })
            : t('pages.optionsGeneric')}
        </Text>
        <Text c="dimmed" maw={440}>
          {finance ? t('pages.optionsChangeHint') : t('pages.optionsAskAdmin')}
        </Text>
        {finance ? (
          <Button component={Link} to="/admin/finance" size="md" mt="sm">
            {t('pages.changePlan')}
          </Button>
        ) : (
          <Button component={Link} to="/admin" variant="default" size="md" mt="sm">
            {t('common.goAdmin')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

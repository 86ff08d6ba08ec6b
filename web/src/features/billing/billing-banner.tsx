import { Alert, Anchor, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useCurrentUser } from '../../shared/session.tsx';
import { formatDate } from './format.ts';

/** From this many days before the paid service ends, finance users are warned (issue 19, DECISIONS). */
export const WARN_DAYS = 3;

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * The admin shell's billing banner: an organisation suspended for non-payment tells everyone why chats cannot be
 * taken or answered (finance users get the way to top up); finance users are warned from WARN_DAYS days before the
 * paid service ends (paid days plus what the balance covers), with the date.
 */
export function BillingBanner() {
  const { t, i18n } = useTranslation();
  const me = useCurrentUser();
  const { suspended, serviceUntil } = me.organisation.billing;
  const finance = me.rights.includes('AUTHORITY_FINANCE');
  const today = new Date().toISOString().slice(0, 10);
  const left = serviceUntil ? daysBetween(today, serviceUntil) : null;
  if (!suspended && !(finance && left !== null && left >= 0 && left <= WARN_DAYS)) return null;
  const date = serviceUntil ? formatDate(serviceUntil, i18n.language) : '';
  const text = suspended
    ? t(finance ? 'billing.suspendedFinance' : 'billing.suspendedOperator')
    : t('billing.endsSoon', { date });
  return (
    <Alert
      role={suspended ? 'alert' : 'status'}
      data-testid="billing-banner"
      color={suspended ? 'red' : 'yellow'}
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      mb="md"
      styles={{ message: { color: 'var(--mantine-color-dark-7)' } }}
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm" fw={500}>
          {text}
        </Text>
        {finance && (
          <Anchor
            component={Link}
            to="/admin/finance/balance"
            size="sm"
            fw={600}
            underline="always"
            c="var(--mantine-color-dark-7)"
          >
            {t('billing.topUpLink')}
          </Anchor>
        )}
      </Group>
    </Alert>
  );
}

import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { DemoPaymentDto } from '@smartconnect/contracts';
import { IconFlask } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { get, post } from '../../shared/api/client.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { formatMoney } from './format.ts';
import { billingKeys } from './keys.ts';

/** The address inside the app that a payment returns to (the finance page with ?payment=). */
const inApp = (url: string) => {
  const u = new URL(url, window.location.origin);
  return `${u.pathname}${u.search}`;
};

/**
 * /admin/finance/demo-payment/{id}: the built-in demo payment page, where a top-up goes while the installation has
 * no payment provider (PAYMENT_PROVIDER=demo, the default without a YooKassa shop). The finance user pays or
 * cancels; no money moves. Then back to the balance, which shows the outcome, as after a provider's page.
 */
export function DemoPaymentPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const payment = useQuery({
    queryKey: billingKeys.demoPayment(id),
    queryFn: () => get<DemoPaymentDto>(`/api/finance/demo-payments/${id}`),
  });
  const answer = useMutation({
    mutationFn: (action: 'pay' | 'cancel') =>
      post<DemoPaymentDto>(`/api/finance/demo-payments/${id}/${action}`),
    onSuccess: async (p) => {
      await client.invalidateQueries({ queryKey: billingKeys.finance });
      navigate(inApp(p.returnUrl));
    },
  });
  if (payment.isPending) return <SectionLoader />;
  // A payment that is not on this page (another organisation's, or a provider configured since): §8's 404 ->
  // /not-found, through the query cache.
  if (payment.isError) return <ErrorState onRetry={() => payment.refetch()} retrying={payment.isFetching} />;
  const p = payment.data;
  const amount = formatMoney(p.amount, i18n.language, p.currency);
  return (
    <Stack gap="md" maw={520} mx="auto" w="100%">
      <Paper p="lg" withBorder>
        <Stack gap="md">
          <Group gap="xs">
            <IconFlask size={22} aria-hidden />
            <Title order={2} size="h3">
              {t('billing.demo.title')}
            </Title>
          </Group>
          <Alert color="yellow" variant="light">
            {t('billing.demo.hint')}
          </Alert>
          <div>
            <Text size="sm" c="dimmed">
              {t('billing.amount')}
            </Text>
            <Text fz={28} fw={700} data-testid="demo-amount">
              {amount}
            </Text>
          </div>
          {p.status === 'pending' ? (
            <Group justify="flex-end">
              <Button
                variant="default"
                onClick={() => answer.mutate('cancel')}
                disabled={answer.isPending}
                loading={answer.isPending && answer.variables === 'cancel'}
              >
                {t('billing.demo.cancel')}
              </Button>
              <Button
                onClick={() => answer.mutate('pay')}
                disabled={answer.isPending}
                loading={answer.isPending && answer.variables === 'pay'}
                data-autofocus
              >
                {t('billing.demo.pay', { amount })}
              </Button>
            </Group>
          ) : (
            <Group justify="space-between" role="status">
              <Text>{t(`billing.paymentStatus.${p.status}`, { amount })}</Text>
              <Button component={Link} to={inApp(p.returnUrl)} variant="light">
                {t('billing.demo.back')}
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

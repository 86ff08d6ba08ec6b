import {
  Alert,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { LIMITS, topUpSchema } from '@smartconnect/contracts';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../shared/api/errors.ts';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { ME_KEY } from '../../shared/session.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { changeOwnPlan, refreshPayment, topUp, useFinance, useFinancePlans } from './api.ts';
import { formatDate, formatMoney } from './format.ts';
import { billingKeys } from './keys.ts';

/** /admin/finance/balance: the balance, the tariff (change it here: the options screen leads here), a top-up. */
export function BalanceTab() {
  const { t, i18n } = useTranslation();
  const finance = useFinance();
  const [params] = useSearchParams();
  const returned = params.get('payment');
  const client = useQueryClient();
  // Back from the payment page: ask the provider now (the webhook may not have come yet).
  const back = useQuery({
    queryKey: billingKeys.returned(returned),
    enabled: !!returned,
    queryFn: async () => {
      const p = await refreshPayment(returned as string);
      await client.invalidateQueries({ queryKey: billingKeys.finance, exact: true });
      // The shell's billing banner reads the current user: a top-up may have lifted a suspension.
      await client.invalidateQueries({ queryKey: ME_KEY });
      return p;
    },
  });
  if (finance.isPending) return <SectionLoader />;
  if (finance.isError) return <ErrorState onRetry={() => finance.refetch()} retrying={finance.isFetching} />;
  const f = finance.data;
  return (
    <Stack gap="md">
      {back.data && (
        <Alert color={back.data.status === 'succeeded' ? 'green' : 'yellow'} data-testid="payment-result">
          {t(`billing.paymentStatus.${back.data.status}`, {
            amount: formatMoney(back.data.amount, i18n.language),
          })}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Paper p="md" withBorder>
          <Text size="sm" c="dimmed">
            {t('billing.balance')}
          </Text>
          <Title order={2} data-testid="balance">
            {formatMoney(f.balance, i18n.language, f.currency)}
          </Title>
          <Badge mt="xs" variant="light">
            {t(`billing.modes.${f.billingMode}`)}
          </Badge>
        </Paper>
        <Paper p="md" withBorder>
          <Text size="sm" c="dimmed">
            {t('billing.tariff')}
          </Text>
          <Title order={3} data-testid="tariff">
            {f.tariffName}
          </Title>
          {!f.plan && (
            <Text size="sm" c="dimmed">
              {t('billing.notCharged')}
            </Text>
          )}
          {f.plan && (
            <Text size="sm" c="dimmed">
              {t('billing.pricePerMonth', { price: formatMoney(f.plan.price, i18n.language) })} ·{' '}
              {t('billing.perDay', { price: formatMoney(f.dailyCharge, i18n.language) })}
            </Text>
          )}
        </Paper>
        <Paper p="md" withBorder>
          <Text size="sm" c="dimmed">
            {t('billing.paidUntil')}
          </Text>
          <Title order={3}>{f.paidUntil ? formatDate(f.paidUntil, i18n.language) : '—'}</Title>
        </Paper>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <TopUpForm />
        <ChangePlan current={f.plan?.id ?? null} />
      </SimpleGrid>
    </Stack>
  );
}

function TopUpForm() {
  const { t } = useTranslation();
  const form = useForm<{ amount: number | string }>({
    initialValues: { amount: LIMITS.minTopUp },
    validate: zodValidate(topUpSchema, (v: { amount: number | string }) => ({ amount: Number(v.amount) })),
  });
  const pay = useMutation({
    meta: { form: true },
    mutationFn: (amount: number) => topUp(amount),
    // The provider's hosted page; it sends the payer back to this tab with ?payment=.
    onSuccess: (r) => window.location.assign(r.confirmationUrl),
    onError: (err) => showServerErrors(form, err),
  });
  return (
    <Paper p="md" withBorder>
      <form noValidate onSubmit={form.onSubmit((v) => pay.mutate(Number(v.amount)))} data-testid="top-up">
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('billing.topUp')}
          </Title>
          <NumberInput
            label={t('billing.amount')}
            description={t('billing.minTopUp', { min: LIMITS.minTopUp })}
            min={0}
            decimalScale={2}
            suffix=" ₽"
            {...form.getInputProps('amount')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={pay.isPending}>
              {t('billing.pay')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function ChangePlan({ current }: { current: string | null }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const plans = useFinancePlans();
  const [planId, setPlanId] = useState<string | null>(current);
  const change = useMutation({
    mutationFn: (id: string) => changeOwnPlan(id),
    onSuccess: async () => {
      notifySuccess(t('billing.planChanged'));
      await client.invalidateQueries({ queryKey: billingKeys.finance });
      await client.invalidateQueries({ queryKey: ME_KEY });
    },
  });
  const err = change.error;
  const price = isApiError(err) && typeof err.details?.price === 'number' ? err.details.price : null;
  return (
    <Paper p="md" withBorder>
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('billing.changePlan')}
        </Title>
        <Select
          label={t('billing.tariff')}
          data={(plans.data?.items ?? []).map((p) => ({
            value: p.id,
            label: `${p.name} — ${formatMoney(p.price, i18n.language)}`,
          }))}
          placeholder={t('billing.choosePlan')}
          value={planId}
          onChange={setPlanId}
          allowDeselect={false}
        />
        {isApiError(err) && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="plan-error">
            {t(`errors.${err.code}`)}
            {price !== null && ` ${t('billing.priceShown', { price: formatMoney(price, i18n.language) })}`}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button
            variant="light"
            disabled={!planId || planId === current}
            loading={change.isPending}
            onClick={() => planId && change.mutate(planId)}
          >
            {t('billing.changePlanAction')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

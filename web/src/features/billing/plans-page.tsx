import { Badge, Button, Checkbox, Drawer, NumberInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { PLAN_OPTIONS, type PlanDto, planBodySchema } from '@smartconnect/contracts';
import { IconListDetails, IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { createPlan, type PlanInput, updatePlan, usePlans } from './api.ts';
import { formatMoney } from './format.ts';
import { billingKeys } from './keys.ts';
import { RecordTable } from './record-table.tsx';

/** Preferences -> Plans (platform staff, RIGHT_OBSERVER): tariffs with price, operator licences and plan options. */
export function PlansPage() {
  const { t, i18n } = useTranslation();
  const list = usePlans();
  const [editing, setEditing] = useState<PlanDto | null>(null);
  const [opened, setOpened] = useState(false);
  const open = (p: PlanDto | null) => {
    setEditing(p);
    setOpened(true);
  };
  return (
    <RecordTable
      label={t('preferences.plans')}
      title
      action={
        <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
          {t('billing.newPlan')}
        </Button>
      }
      query={list}
      empty={{ icon: <IconListDetails size={32} />, title: t('billing.noPlans') }}
      minWidth={760}
      testId="plans"
      columns={[
        { header: t('billing.planName'), cell: (p) => p.name, td: { fw: 600 } },
        { header: t('billing.price'), cell: (p) => formatMoney(p.price, i18n.language) },
        { header: t('billing.operatorLicences'), cell: (p) => p.operatorLicences },
        { header: t('billing.accountsMax'), cell: (p) => p.accountsMax ?? '∞' },
        {
          header: t('billing.options'),
          cell: (p) => (
            <Badge variant="light">{t('billing.optionsCount', { count: p.options.length })}</Badge>
          ),
        },
        { header: t('billing.companiesOnPlan'), cell: (p) => p.organisations },
        {
          header: t('billing.actions'),
          hidden: true,
          cell: (p) => (
            <Button size="xs" variant="default" onClick={() => open(p)}>
              {t('billing.edit')}
            </Button>
          ),
        },
      ]}
    >
      <Drawer
        opened={opened}
        onClose={() => setOpened(false)}
        position="right"
        title={t(editing ? 'billing.editPlan' : 'billing.newPlan')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
        styles={{ title: { fontWeight: 650, fontSize: 20 } }}
      >
        {opened && <PlanForm key={editing?.id ?? 'new'} plan={editing} onClose={() => setOpened(false)} />}
      </Drawer>
    </RecordTable>
  );
}

function PlanForm({ plan, onClose }: { plan: PlanDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm<PlanInput>({
    initialValues: {
      name: plan?.name ?? '',
      price: plan?.price ?? 0,
      operatorLicences: plan?.operatorLicences ?? 5,
      accountsMax: plan?.accountsMax ?? null,
      options: plan?.options ?? [],
    },
    validate: zodValidate(planBodySchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: PlanInput) => (plan ? updatePlan(plan.id, v) : createPlan(v)),
    onSuccess: async () => {
      notifySuccess(t(plan ? 'billing.planChanged' : 'billing.planCreated'));
      await client.invalidateQueries({ queryKey: billingKeys.plans });
      onClose();
    },
    onError: (err) => showServerErrors(form, err),
  });
  const accounts = form.getInputProps('accountsMax');
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="md">
        <TextInput label={t('billing.planName')} withAsterisk {...form.getInputProps('name')} />
        <NumberInput
          label={t('billing.priceMonthly')}
          min={0}
          decimalScale={2}
          {...form.getInputProps('price')}
        />
        <NumberInput
          label={t('billing.operatorLicences')}
          min={0}
          {...form.getInputProps('operatorLicences')}
        />
        <NumberInput
          label={t('billing.accountsMax')}
          description={t('billing.accountsMaxHint')}
          min={0}
          {...accounts}
          value={accounts.value ?? ''}
          onChange={(v) => form.setFieldValue('accountsMax', v === '' ? null : Number(v))}
        />
        <Checkbox.Group label={t('billing.options')} {...form.getInputProps('options')}>
          <SimpleGrid cols={1} spacing="xs" mt="xs">
            {PLAN_OPTIONS.map((o) => (
              <Checkbox key={o} value={o} label={t(`planOptions.${o}`)} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <FormActions onClose={onClose} readOnly={false} creating={!plan} pending={save.isPending} />
      </Stack>
    </form>
  );
}

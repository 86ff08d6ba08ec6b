import {
  Badge,
  Button,
  Checkbox,
  Drawer,
  Group,
  NumberInput,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { PLAN_OPTIONS, type PlanDto, planBodySchema } from '@smartconnect/contracts';
import { IconListDetails, IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { createPlan, type PlanInput, updatePlan, usePlans } from './api.ts';
import { formatMoney } from './format.ts';

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
  const items = list.data?.items ?? [];
  return (
    <Paper p="md">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t('preferences.plans')}
          </Title>
          <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
            {t('billing.newPlan')}
          </Button>
        </Group>
        {list.isPending ? (
          <SectionLoader />
        ) : list.isError ? (
          <ErrorState onRetry={() => list.refetch()} retrying={list.isFetching} />
        ) : items.length === 0 ? (
          <EmptyState icon={<IconListDetails size={32} />} title={t('billing.noPlans')} />
        ) : (
          <ScrollArea
            type="auto"
            viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('preferences.plans') }}
          >
            <Table striped miw={760} data-testid="plans">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('billing.planName')}</Table.Th>
                  <Table.Th>{t('billing.price')}</Table.Th>
                  <Table.Th>{t('billing.operatorLicences')}</Table.Th>
                  <Table.Th>{t('billing.accountsMax')}</Table.Th>
                  <Table.Th>{t('billing.options')}</Table.Th>
                  <Table.Th>{t('billing.companiesOnPlan')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('billing.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((p) => (
                  <Table.Tr key={p.id}>
                    <Table.Td fw={600}>{p.name}</Table.Td>
                    <Table.Td>{formatMoney(p.price, i18n.language)}</Table.Td>
                    <Table.Td>{p.operatorLicences}</Table.Td>
                    <Table.Td>{p.accountsMax ?? '∞'}</Table.Td>
                    <Table.Td>
                      <Badge variant="light">{t('billing.optionsCount', { count: p.options.length })}</Badge>
                    </Table.Td>
                    <Table.Td>{p.organisations}</Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="default" onClick={() => open(p)}>
                        {t('billing.edit')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Stack>
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
    </Paper>
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
      await client.invalidateQueries({ queryKey: ['plans'] });
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

import { Drawer, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type OrganisationDto,
  organisationCreateSchema,
  organisationUpdateSchema,
} from '@smartconnect/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { createOrganisation, type OrganisationInput, updateOrganisation, usePlans } from './api.ts';
import { billingKeys } from './keys.ts';

type Props = { org: OrganisationDto | null; opened: boolean; onClose: () => void };

/** Create a customer organisation with its administrator, or edit one (§3 Organization's fields, §5 limits). */
export function CompanyDrawer({ org, opened, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      title={t(org ? 'billing.editCompany' : 'billing.newCompany')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      styles={{ title: { fontWeight: 650, fontSize: 20 } }}
    >
      {opened && <CompanyForm key={org?.id ?? 'new'} org={org} onClose={onClose} />}
    </Drawer>
  );
}

type Values = Required<Omit<OrganisationInput, 'instance'>> & { instance: string };

function CompanyForm({ org, onClose }: { org: OrganisationDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const plans = usePlans();
  const form = useForm<Values>({
    initialValues: {
      login: org?.login ?? '',
      name: org?.name ?? '',
      adminEmail: org?.adminEmail ?? '',
      language: org?.language ?? 'eng',
      planId: org?.planId ?? '',
      instance: org?.instance ?? '',
      status: org?.status ?? 'active',
      firstTariffDay: org?.firstTariffDay ?? '',
      balance: org?.balance ?? 0,
      billingMode: org?.billingMode ?? 'prepaid',
    },
    validate: zodValidate(org ? organisationUpdateSchema : organisationCreateSchema, (v: Values) =>
      org
        ? { ...v, planId: v.planId || undefined }
        : { ...v, planId: v.planId || undefined, instance: v.instance },
    ),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: Values) => {
      if (!org)
        return createOrganisation({
          login: v.login,
          name: v.name,
          adminEmail: v.adminEmail,
          language: v.language,
          planId: v.planId,
          instance: v.instance || undefined,
        });
      const { planId, ...rest } = v;
      return updateOrganisation(org.id, {
        ...rest,
        instance: v.instance || null,
        ...(planId && planId !== org.planId ? { planId } : {}),
      });
    },
    onSuccess: async () => {
      notifySuccess(t(org ? 'billing.companyChanged' : 'billing.companyCreated'));
      await client.invalidateQueries({ queryKey: billingKeys.organisations });
      onClose();
    },
    onError: (err) => showServerErrors(form, err),
  });
  const planOptions = (plans.data?.items ?? []).map((p) => ({
    value: p.id,
    label: `${p.name} — ${p.price} ₽`,
  }));
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))} data-testid="company-form">
      <Stack gap="md">
        <TextInput label={t('billing.login')} withAsterisk {...form.getInputProps('login')} />
        <TextInput label={t('billing.name')} withAsterisk {...form.getInputProps('name')} />
        <TextInput
          label={t('billing.adminEmail')}
          type="email"
          withAsterisk
          description={org ? undefined : t('billing.adminEmailHint')}
          {...form.getInputProps('adminEmail')}
        />
        <Select
          label={t('billing.language')}
          data={[
            { value: 'eng', label: t('billing.languages.eng') },
            { value: 'rus', label: t('billing.languages.rus') },
          ]}
          allowDeselect={false}
          {...form.getInputProps('language')}
        />
        <Select
          label={t('billing.tariff')}
          withAsterisk
          data={planOptions}
          placeholder={t('billing.choosePlan')}
          {...form.getInputProps('planId')}
        />
        <TextInput label={t('billing.instance')} {...form.getInputProps('instance')} />
        {org && (
          <>
            <Select
              label={t('billing.status')}
              data={[
                { value: 'active', label: t('billing.statuses.active') },
                { value: 'deactivated', label: t('billing.statuses.deactivated') },
              ]}
              allowDeselect={false}
              {...form.getInputProps('status')}
            />
            <TextInput
              label={t('billing.firstTariffDay')}
              type="date"
              {...form.getInputProps('firstTariffDay')}
            />
            <NumberInput label={t('billing.balance')} decimalScale={2} {...form.getInputProps('balance')} />
            <Select
              label={t('billing.billingMode')}
              data={[
                { value: 'prepaid', label: t('billing.modes.prepaid') },
                { value: 'postpaid', label: t('billing.modes.postpaid') },
              ]}
              allowDeselect={false}
              {...form.getInputProps('billingMode')}
            />
          </>
        )}
        <FormActions onClose={onClose} readOnly={false} creating={!org} pending={save.isPending} />
      </Stack>
    </form>
  );
}

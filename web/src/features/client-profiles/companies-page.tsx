import { ActionIcon, Button, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { type CompanyDto, companySchema } from '@smartconnect/contracts';
import { IconBuilding, IconCheck, IconPencil, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { isolate } from '../../shared/bidi.ts';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable, RowAction } from '../../shared/ui/list-table.tsx';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { createCompany, deleteCompany, renameCompany, useCompanies, useRefreshClients } from './api.ts';

function CompanyForm({ company, onDone }: { company: CompanyDto | null; onDone: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshClients();
  const form = useForm({
    initialValues: { name: company?.name ?? '' },
    validate: zodValidate(companySchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: { name: string }) =>
      company ? renameCompany(company.id, v.name) : createCompany(v.name),
    onSuccess: async () => {
      notifySuccess(t(company ? 'clientProfiles.companyChanged' : 'clientProfiles.companyCreated'));
      form.reset();
      await refresh();
      onDone();
    },
    onError: (err) => showServerErrors(form, err),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Group gap={4} align="flex-start" wrap="nowrap">
        <TextInput
          flex={1}
          size="xs"
          aria-label={t('clientProfiles.companyName')}
          placeholder={t('clientProfiles.companyName')}
          {...form.getInputProps('name')}
        />
        <ActionIcon type="submit" loading={save.isPending} aria-label={t('common.save')} mt={2}>
          <IconCheck size={14} />
        </ActionIcon>
        {company && (
          <ActionIcon variant="subtle" color="gray" onClick={onDone} aria-label={t('common.cancel')} mt={2}>
            <IconX size={14} />
          </ActionIcon>
        )}
      </Group>
    </form>
  );
}

/** Outer companies of clients (/admin/clients/companies): search, add, rename, delete. */
export function CompaniesPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const companies = useCompanies(debounced);
  const refresh = useRefreshClients();
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const remove = useMutation({
    mutationFn: (c: CompanyDto) => deleteCompany(c.id),
    onSuccess: async () => {
      notifySuccess(t('clientProfiles.companyDeleted'));
      await refresh();
    },
  });
  const confirmDelete = (c: CompanyDto) =>
    modals.openConfirmModal({
      title: t('clientProfiles.companyDeleteTitle'),
      children: <Text size="sm">{isolate(c.name)}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(c),
    });
  return (
    <>
      <PageHeader
        title={t('clientProfiles.companiesTitle')}
        actions={
          <Button leftSection={<IconPlus size={18} />} onClick={() => setAdding(true)}>
            {t('clientProfiles.companyAdd')}
          </Button>
        }
      />
      <Paper p={0} maw={720}>
        <Stack p="md" gap="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <TextInput
            aria-label={t('clientProfiles.companySearch')}
            placeholder={t('clientProfiles.companySearch')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          {adding && <CompanyForm company={null} onDone={() => setAdding(false)} />}
        </Stack>
        {companies.isLoading ? (
          <SectionLoader />
        ) : !companies.data?.length ? (
          <EmptyState icon={<IconBuilding size={30} />} title={t('clientProfiles.noCompanies')} />
        ) : (
          <ListTable
            minWidth={360}
            testId="companies-table"
            headings={[t('clientProfiles.companyName'), t('clientProfiles.statusClients'), { w: 90 }]}
          >
            {companies.data.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  {editing === c.id ? (
                    <CompanyForm company={c} onDone={() => setEditing(null)} />
                  ) : (
                    <UserText>{c.name}</UserText>
                  )}
                </Table.Td>
                <Table.Td>{c.clients}</Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <RowAction
                      label={t('common.edit')}
                      icon={<IconPencil size={18} />}
                      onClick={() => setEditing(c.id)}
                    />
                    <RowAction
                      label={t('common.delete')}
                      color="red"
                      icon={<IconTrash size={18} />}
                      onClick={() => confirmDelete(c)}
                    />
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </Paper>
    </>
  );
}

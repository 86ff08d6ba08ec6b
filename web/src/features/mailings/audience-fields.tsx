import {
  Button,
  FileButton,
  Group,
  MultiSelect,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { MAILING_LIMITS } from '@smartconnect/contracts';
import { IconFileUpload } from '@tabler/icons-react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifyMessage } from '../../shared/notify.ts';
import { useAccess } from '../../shared/session.tsx';
import { useCompanies, useStatuses, useUsers } from '../client-profiles/api.ts';
import { AudienceCount } from './audience-count.tsx';
import { type MailingFormValues, parseList } from './form-values.ts';

/** A list file larger than this is refused before it is read (100,000 entries of at most 100 characters). */
const FILE_MAX_BYTES = 12 * 1024 * 1024;

/**
 * Who receives it: the channel's contacts whose clients match every filter given (statuses, tags, companies,
 * personal managers, last contact, an uploaded list of phones or ids), with the live count below.
 */
export function AudienceFields({ form }: { form: UseFormReturnType<MailingFormValues> }) {
  const { t } = useTranslation();
  const { has } = useAccess();
  const statuses = useStatuses(has('OPTION_PROFILE_STATUS'));
  const companies = useCompanies('', has('OPTION_PROFILE'));
  const users = useUsers();
  const entries = parseList(form.values.list).length;
  const load = async (file: File | null) => {
    if (!file) return;
    if (file.size > FILE_MAX_BYTES) {
      notifyMessage(t('mailings.fileTooBig'));
      return;
    }
    const lines = parseList(await file.text());
    form.setFieldValue('list', lines.join('\n'));
  };
  return (
    <Stack gap="md">
      <Text size="sm" c="gray.7">
        {t('mailings.audienceHint')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {has('OPTION_PROFILE_STATUS') && (
          <MultiSelect
            label={t('mailings.statuses')}
            placeholder={form.values.statusIds.length ? undefined : t('mailings.any')}
            data={(statuses.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
            searchable
            nothingFoundMessage={t('mailings.nothingFound')}
            data-testid="audience-statuses"
            {...form.getInputProps('statusIds')}
          />
        )}
        <TagsInput
          label={t('mailings.tags')}
          description={t('mailings.tagsHint')}
          placeholder={form.values.tags.length ? undefined : t('mailings.any')}
          maxTags={MAILING_LIMITS.tagsMax}
          data-testid="audience-tags"
          {...form.getInputProps('tags')}
        />
        {has('OPTION_PROFILE') && (
          <MultiSelect
            label={t('mailings.companies')}
            placeholder={form.values.companyIds.length ? undefined : t('mailings.any')}
            data={(companies.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            searchable
            nothingFoundMessage={t('mailings.nothingFound')}
            data-testid="audience-companies"
            {...form.getInputProps('companyIds')}
          />
        )}
        <MultiSelect
          label={t('mailings.managers')}
          placeholder={form.values.managerIds.length ? undefined : t('mailings.any')}
          data={(users.data?.items ?? []).map((u) => ({ value: u.id, label: u.name }))}
          searchable
          nothingFoundMessage={t('mailings.nothingFound')}
          data-testid="audience-managers"
          {...form.getInputProps('managerIds')}
        />
        <TextInput
          type="date"
          label={t('mailings.lastContactAfter')}
          data-testid="audience-after"
          {...form.getInputProps('lastContactAfter')}
        />
        <TextInput
          type="date"
          label={t('mailings.lastContactBefore')}
          data-testid="audience-before"
          {...form.getInputProps('lastContactBefore')}
        />
      </SimpleGrid>
      <Textarea
        label={t('mailings.list')}
        description={t('mailings.listHint')}
        autosize
        minRows={3}
        maxRows={8}
        spellCheck={false}
        data-testid="audience-list"
        {...form.getInputProps('list')}
      />
      <Group gap="sm" justify="space-between">
        <FileButton onChange={(f) => void load(f)} accept=".txt,.csv,text/plain,text/csv">
          {(props) => (
            <Button
              {...props}
              variant="light"
              leftSection={<IconFileUpload size={16} aria-hidden />}
              data-testid="audience-file"
            >
              {t('mailings.listFile')}
            </Button>
          )}
        </FileButton>
        {entries > 0 && (
          <Text size="sm" c="gray.7" data-testid="audience-list-count">
            {t('mailings.listEntries', { count: entries })}
          </Text>
        )}
      </Group>
      <AudienceCount form={form} />
    </Stack>
  );
}

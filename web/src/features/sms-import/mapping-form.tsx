import { Button, Group, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { SMS_IMPORT_FIELDS, type SmsImportDto, type SmsImportField } from '@smartconnect/contracts';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { startSmsImport } from './api.ts';
import { smsImportKeys } from './keys.ts';

type Choice = Record<SmsImportField, string | null>;
const REQUIRED: SmsImportField[] = ['phone', 'text'];

/** The fields' errors: phone and text chosen, and no column chosen twice (the later field names the earlier). */
function check(
  choice: Choice,
  label: (f: SmsImportField) => string,
): Partial<Record<SmsImportField, string>> {
  const errors: Partial<Record<SmsImportField, string>> = {};
  const seen = new Map<string, SmsImportField>();
  for (const field of SMS_IMPORT_FIELDS) {
    const v = choice[field];
    if (v === null) {
      if (REQUIRED.includes(field)) errors[field] = 'required';
      continue;
    }
    const first = seen.get(v);
    if (first) errors[field] = `twice:${label(first)}`;
    else seen.set(v, field);
  }
  return errors;
}

/** An import that waits for its columns: a Select per field (from the guess), the file's first rows, start. */
export function MappingForm({ item }: { item: SmsImportDto }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<Choice>(
    () =>
      Object.fromEntries(
        SMS_IMPORT_FIELDS.map((f) => [f, item.suggested[f] === null ? null : String(item.suggested[f])]),
      ) as Choice,
  );
  const [tried, setTried] = useState(false);
  const label = (f: SmsImportField) => t(`smsImport.fields.${f}`);
  const errors = tried ? check(choice, label) : {};
  const columnName = (c: string, i: number) => c.trim() || t('smsImport.mapping.column', { n: i + 1 });
  const options = item.columns.map((c, i) => ({ value: String(i), label: columnName(c, i) }));
  const start = useMutation({
    mutationFn: () => {
      const n = (v: string | null) => (v === null ? null : Number(v));
      return startSmsImport(item.id, {
        phone: Number(choice.phone),
        text: Number(choice.text),
        sentAt: n(choice.sentAt),
        status: n(choice.status),
        messageId: n(choice.messageId),
      });
    },
    onSuccess: (dto) => {
      queryClient.setQueryData(smsImportKeys.one(dto.id), dto);
      void queryClient.invalidateQueries({ queryKey: smsImportKeys.lists });
    },
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (Object.keys(check(choice, label)).length) return;
    start.mutate();
  };
  const errorText = (e: string | undefined) =>
    !e
      ? undefined
      : e === 'required'
        ? t('smsImport.mapping.required')
        : t('smsImport.mapping.twice', { field: e.slice('twice:'.length) });
  return (
    <form onSubmit={submit} noValidate data-testid="sms-import-mapping">
      <Stack>
        <div>
          <Title order={3} fz="lg">
            {t('smsImport.mapping.title')}
          </Title>
          <Text size="sm" c="gray.7">
            {t('smsImport.mapping.hint')}
          </Text>
        </div>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {SMS_IMPORT_FIELDS.map((f) => (
            <Select
              key={f}
              label={label(f)}
              required={REQUIRED.includes(f)}
              placeholder={t('smsImport.mapping.notInFile')}
              data={options}
              value={choice[f]}
              onChange={(v) => setChoice((c) => ({ ...c, [f]: v }))}
              clearable={!REQUIRED.includes(f)}
              error={errorText(errors[f])}
              data-testid={`sms-map-${f}`}
            />
          ))}
        </SimpleGrid>
        <div>
          <Text size="sm" fw={600} mb={4} id={`preview-${item.id}`}>
            {t('smsImport.mapping.preview')}
          </Text>
          <Table.ScrollContainer
            minWidth={Math.max(320, item.columns.length * 140)}
            type="native"
            tabIndex={0}
          >
            <Table
              withTableBorder
              withColumnBorders
              striped
              aria-labelledby={`preview-${item.id}`}
              data-testid="sms-import-preview"
            >
              <Table.Thead>
                <Table.Tr>
                  {item.columns.map((c, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the file's columns are in their order
                    <Table.Th key={i}>
                      <UserText>{columnName(c, i)}</UserText>
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {item.sample.map((row, r) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the sample rows are in their order
                  <Table.Tr key={r}>
                    {item.columns.map((_, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the file's columns are in their order
                      <Table.Td key={i}>
                        <Text size="sm" lineClamp={2}>
                          <UserText>{row[i] ?? ''}</UserText>
                        </Text>
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </div>
        <Group justify="flex-end">
          <Button
            type="submit"
            loading={start.isPending}
            leftSection={<IconPlayerPlay size={18} />}
            data-testid="sms-import-start"
          >
            {t('smsImport.mapping.start')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

import { Alert, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  fillProviderTemplate,
  PROVIDER_TEMPLATE_LIMITS,
  providerTemplateVariables,
  type WhatsAppTemplateDto,
} from '@smartconnect/contracts';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useMailingTemplates } from './api.ts';
import type { MailingFormValues } from './form-values.ts';

/** The registered template the form's `template` names, among the channel's. */
export function pickedTemplate(
  list: WhatsAppTemplateDto[] | undefined,
  channelId: string | null,
  value: MailingFormValues['template'],
): WhatsAppTemplateDto | undefined {
  if (!value) return undefined;
  return list?.find(
    (x) => x.channelId === channelId && x.name === value.name && x.languageCode === value.languageCode,
  );
}

/**
 * A WhatsApp channel's template registered at the provider: what reaches clients outside the 24-hour window.
 * Its {{n}} placeholders are filled here (they may hold {client_name}, {channel}, {date}, filled per recipient).
 */
export function TemplateFields({ form }: { form: UseFormReturnType<MailingFormValues> }) {
  const { t } = useTranslation();
  const { channelId, template: value } = form.values;
  const all = useMailingTemplates(channelId);
  const list = (all.data ?? []).filter((x) => x.channelId === channelId);
  const template = pickedTemplate(all.data, channelId, value);
  const vars = template ? providerTemplateVariables(template.text) : [];
  const current = value?.variables ?? [];
  const idOf = (x: WhatsAppTemplateDto) => `${x.name}\u0000${x.languageCode}`;
  return (
    <Stack gap="sm" data-testid="mailing-template-fields">
      <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} aria-hidden />} p="sm">
        <Text size="sm">{t('mailings.templateHint')}</Text>
      </Alert>
      <Select
        label={t('mailings.template')}
        description={t('mailings.templateDescription')}
        placeholder={all.isLoading ? t('mailings.templatesLoading') : t('mailings.templateNone')}
        clearable
        searchable
        nothingFoundMessage={t('mailings.noTemplates')}
        data={list.map((x) => ({ value: idOf(x), label: `${x.name} (${t(`languages.${x.language}`)})` }))}
        value={template ? idOf(template) : null}
        error={
          all.isError
            ? t('mailings.templatesFailed')
            : (form.errors.template ??
              (value && !all.isLoading && !template ? t('mailings.templateGone') : undefined))
        }
        onChange={(id) => {
          const next = list.find((x) => idOf(x) === id);
          form.setFieldValue(
            'template',
            next
              ? {
                  name: next.name,
                  languageCode: next.languageCode,
                  variables: providerTemplateVariables(next.text).map(() => ''),
                }
              : null,
          );
          form.clearFieldError('template');
          form.clearFieldError('text');
        }}
        data-testid="mailing-template"
      />
      {!all.isLoading && !all.isError && list.length === 0 && (
        <Text size="sm" c="gray.7" data-testid="mailing-templates-empty">
          {t('mailings.noTemplatesHint')}
        </Text>
      )}
      {template &&
        vars.map((n, i) => (
          <TextInput
            key={n}
            label={t('mailings.templateVariable', { n })}
            description={i === 0 ? t('mailings.templateVariableHint') : undefined}
            withAsterisk
            maxLength={PROVIDER_TEMPLATE_LIMITS.variableMax}
            value={current[i] ?? ''}
            error={form.errors[`template.variables.${i}`]}
            onChange={(e) => {
              const next = vars.map((_, j) => current[j] ?? '');
              next[i] = e.currentTarget.value;
              form.setFieldValue('template', {
                ...(value ?? { name: '', languageCode: '' }),
                variables: next,
              });
              form.clearFieldError(`template.variables.${i}`);
            }}
            data-testid={`mailing-template-var-${n}`}
          />
        ))}
      {template && (
        <Paper withBorder p="sm" bg="gray.0">
          <Text size="xs" c="gray.7" mb={4}>
            {t('mailings.templatePreview')}
          </Text>
          <Text
            size="sm"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            data-testid="mailing-template-preview"
          >
            <UserText>
              {fillProviderTemplate(
                template.text,
                vars.reduce<string[]>((acc, n, i) => {
                  const filled = current[i]?.trim();
                  if (filled) acc[n - 1] = filled;
                  return acc;
                }, []),
              )}
            </UserText>
          </Text>
        </Paper>
      )}
    </Stack>
  );
}

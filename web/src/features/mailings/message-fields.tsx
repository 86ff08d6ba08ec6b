import { Radio, Select, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { MAILING_LIMITS, MAILING_MARKETING_TYPES, TEMPLATE_VARIABLES } from '@smartconnect/contracts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useChannels } from '../channels/api.ts';
import { VariableTextField } from '../templates/variable-text-field.tsx';
import type { MailingFormValues } from './form-values.ts';
import { AttachmentFields, type MailingUploads } from './mailing-attachments.tsx';
import { TemplateFields } from './template-fields.tsx';

/** The variables filled per recipient: the composer's, but a mailing has no operator. */
const VARIABLES = TEMPLATE_VARIABLES.filter((v) => v !== 'operator_name');

/** Name, channel, marketing type and the text with its variables inserted at the cursor. */
export function MessageFields({
  form,
  uploads,
}: {
  form: UseFormReturnType<MailingFormValues>;
  uploads: MailingUploads;
}) {
  const { t } = useTranslation();
  const channels = useChannels();
  const channel = channels.data?.find((c) => c.id === form.values.channelId);
  const whatsapp = channel?.type === 'whatsapp';
  const channelInput = form.getInputProps('channelId');
  return (
    <Stack gap="md">
      <TextInput
        label={t('mailings.name')}
        withAsterisk
        maxLength={MAILING_LIMITS.nameMax}
        data-testid="mailing-name"
        {...form.getInputProps('name')}
      />
      <Select
        label={t('mailings.channel')}
        description={t('mailings.channelHint')}
        placeholder={t('mailings.channelPlaceholder')}
        withAsterisk
        searchable
        nothingFoundMessage={t('mailings.noChannels')}
        // An SMS import channel sends nothing: not offered (the server refuses it as any channel that cannot write first).
        data={(channels.data ?? [])
          .filter((c) => c.type !== 'sms')
          .map((c) => ({
            value: c.id,
            label: `${c.name} (${t(`channels.types.${c.type}`)})`,
          }))}
        data-testid="mailing-channel"
        {...channelInput}
        onChange={(id) => {
          // A template is registered for one channel: another channel starts without it.
          if (id !== form.values.channelId) form.setFieldValue('template', null);
          channelInput.onChange(id);
        }}
      />
      <Radio.Group label={t('mailings.marketingType')} withAsterisk {...form.getInputProps('marketingType')}>
        <Stack gap="xs" mt={6}>
          {MAILING_MARKETING_TYPES.map((m) => (
            <Radio
              key={m}
              value={m}
              label={t(`mailings.marketing.${m}`)}
              description={t(`mailings.marketingHint.${m}`)}
              data-testid={`marketing-${m}`}
            />
          ))}
        </Stack>
      </Radio.Group>
      <VariableTextField
        label={t('mailings.text')}
        hint={form.values.template ? t('mailings.textWithTemplateHint') : t('mailings.variablesHint')}
        value={form.values.text}
        onChange={(text) => form.setFieldValue('text', text)}
        inputProps={form.getInputProps('text')}
        variables={VARIABLES}
        maxLength={MAILING_LIMITS.textMax}
        maxRows={14}
        testId="mailing"
      />
      <AttachmentFields form={form} uploads={uploads} />
      {whatsapp && <TemplateFields form={form} />}
    </Stack>
  );
}

import { Group, NumberInput, Radio, Stack, Switch, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { MAILING_LIMITS } from '@smartconnect/contracts';
import { useTranslation } from '../../shared/i18n/index.ts';
import type { MailingFormValues } from './form-values.ts';

/** When it starts (when started, or at a moment), the hours it may send in, and at most how fast. */
export function ScheduleFields({ form }: { form: UseFormReturnType<MailingFormValues> }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Radio.Group label={t('mailings.schedule')} {...form.getInputProps('schedule')}>
        <Stack gap="xs" mt={6}>
          <Radio value="now" label={t('mailings.scheduleNow')} data-testid="schedule-now" />
          <Radio value="at" label={t('mailings.scheduleAt')} data-testid="schedule-at" />
        </Stack>
      </Radio.Group>
      {form.values.schedule === 'at' && (
        <TextInput
          type="datetime-local"
          label={t('mailings.scheduledAt')}
          description={t('mailings.scheduledAtHint')}
          withAsterisk
          maw={280}
          data-testid="scheduled-at"
          {...form.getInputProps('scheduledAt')}
        />
      )}
      <Switch
        label={t('mailings.window')}
        description={t('mailings.windowHint')}
        data-testid="window-on"
        {...form.getInputProps('windowOn', { type: 'checkbox' })}
      />
      {form.values.windowOn && (
        <Group gap="md" grow maw={360}>
          <TextInput
            type="time"
            label={t('mailings.windowFrom')}
            data-testid="window-from"
            {...form.getInputProps('windowFrom')}
          />
          <TextInput
            type="time"
            label={t('mailings.windowTo')}
            data-testid="window-to"
            {...form.getInputProps('windowTo')}
          />
        </Group>
      )}
      <NumberInput
        label={t('mailings.rate')}
        description={t('mailings.rateHint')}
        placeholder={t('mailings.ratePlaceholder')}
        min={1}
        max={MAILING_LIMITS.ratePerSecondMax}
        allowDecimal={false}
        allowNegative={false}
        maw={280}
        data-testid="rate"
        {...form.getInputProps('ratePerSecond')}
      />
    </Stack>
  );
}

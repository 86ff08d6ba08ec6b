import { Button, Group, Stack } from '@mantine/core';
import { type UseFormReturnType, useForm } from '@mantine/form';
import type { ChannelDto } from '@smartconnect/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { updateChannel } from './api.ts';
import { showChannelErrors } from './channel-errors.ts';
import { type ChannelFormValues, channelPayload, channelToForm, validateChannel } from './channel-form.ts';
import { CommonFields } from './common-fields.tsx';
import { channelKeys } from './keys.ts';
import type { ChannelTypeUi } from './types/types.ts';

/** The general tab: the common fields and the type's own settings (secrets write-only: empty is unchanged). */
export function GeneralTab({ channel, ui }: { channel: ChannelDto; ui: ChannelTypeUi }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  // Own fields are sent only when changed from what was last saved (the form's initial values).
  const form: UseFormReturnType<ChannelFormValues> = useForm<ChannelFormValues>({
    initialValues: channelToForm(ui, channel),
    validate: (v: ChannelFormValues): Record<string, string> =>
      validateChannel(ui, true, form.getInitialValues().own)(v),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: ChannelFormValues) =>
      updateChannel(channel.id, channelPayload(ui, v, form.getInitialValues().own)),
    onSuccess: async (updated) => {
      const saved = channelToForm(ui, updated);
      form.setInitialValues(saved);
      form.setValues(saved);
      notifySuccess(t('channels.changed'));
      client.setQueryData(channelKeys.one(channel.id), updated);
      await client.invalidateQueries({ queryKey: channelKeys.all });
    },
    onError: (err) => showChannelErrors(form, err, ui),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack maw={640}>
        <CommonFields form={form} />
        <ui.Fields
          values={form.values.own}
          errors={Object.fromEntries(
            Object.keys(form.values.own).map((k) => [k, form.errors[`own.${k}`] as string | undefined]),
          )}
          onChange={(k, v) => form.setFieldValue(`own.${k}`, v)}
          editing
          channel={channel}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('common.saveChanges')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

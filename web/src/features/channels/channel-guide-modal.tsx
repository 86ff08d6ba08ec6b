import { Alert, Button, Group, List, Modal, Stack, Stepper, Text, ThemeIcon } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ChannelCreatedDto } from '@smartconnect/contracts';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { createChannel } from './api.ts';
import { showChannelErrors } from './channel-errors.ts';
import { type ChannelFormValues, channelPayload, channelToForm, validateChannel } from './channel-form.ts';
import { CommonFields } from './common-fields.tsx';
import type { ChannelTypeUi } from './types/types.ts';

type Props = {
  ui: ChannelTypeUi | null;
  onClose: () => void;
  onCreated: (c: ChannelCreatedDto) => void;
  /** Back from the provider's login: open at the settings step. */
  resumeAtSettings?: boolean;
};

/** Creating a channel through its type's guide (§2.6): what to do at the provider, step by step, then the fields. */
export function ChannelGuideModal({ ui, onClose, onCreated, resumeAtSettings }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={!!ui}
      onClose={onClose}
      size="lg"
      title={ui ? t('channels.connectTitle', { type: t(`channels.types.${ui.type}`) }) : ''}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {ui && (
        <Guide
          key={ui.type}
          ui={ui}
          onClose={onClose}
          onCreated={onCreated}
          resumeAtSettings={resumeAtSettings}
        />
      )}
    </Modal>
  );
}

function Guide({ ui, onClose, onCreated, resumeAtSettings }: Props & { ui: ChannelTypeUi }) {
  const { t } = useTranslation();
  const [step, setStep] = useState(resumeAtSettings ? 1 : 0);
  const form = useForm<ChannelFormValues>({
    initialValues: channelToForm(ui),
    validate: validateChannel(ui, false),
  });
  const create = useMutation({
    meta: { form: true },
    mutationFn: (v: ChannelFormValues) => createChannel(channelPayload(ui, v)),
    onSuccess: onCreated,
    onError: (err) => showChannelErrors(form, err, ui),
  });
  const Icon = ui.icon;
  return (
    <Stepper active={step} onStepClick={setStep} size="sm" allowNextStepsSelect={false}>
      <Stepper.Step label={t('channels.guide.atProvider')} data-testid="guide-step-provider">
        <Stack mt="md">
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon variant="light" size="lg" radius="md">
              <Icon size={20} />
            </ThemeIcon>
            <Text size="sm">{t(ui.guideIntro ?? `channels.guide.${ui.type}.intro`)}</Text>
          </Group>
          <List type="ordered" spacing="xs" data-testid="guide-steps">
            {ui.guideSteps.map((key) => (
              <List.Item key={key}>
                <Text size="sm">{t(key)}</Text>
              </List.Item>
            ))}
          </List>
          {ui.guideNote && (
            <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />}>
              {t(ui.guideNote)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button data-autofocus onClick={() => setStep(1)}>
              {t('channels.guide.next')}
            </Button>
          </Group>
        </Stack>
      </Stepper.Step>
      <Stepper.Step label={t('channels.guide.settings')}>
        <form noValidate onSubmit={form.onSubmit((v) => create.mutate(v))}>
          <Stack mt="md">
            <CommonFields form={form} autoFocus />
            <ui.Fields
              values={form.values.own}
              errors={Object.fromEntries(
                Object.keys(form.values.own).map((k) => [k, form.errors[`own.${k}`] as string | undefined]),
              )}
              onChange={(k, v) => form.setFieldValue(`own.${k}`, v)}
              editing={false}
            />
            <Group justify="space-between">
              <Button variant="default" onClick={() => setStep(0)}>
                {t('channels.guide.back')}
              </Button>
              <Button type="submit" loading={create.isPending}>
                {t('common.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stepper.Step>
    </Stepper>
  );
}

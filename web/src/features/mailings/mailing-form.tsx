import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type MailingDto, mailingCreateSchema } from '@smartconnect/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { createMailing, updateMailing } from './api.ts';
import { AudienceFields } from './audience-fields.tsx';
import { EMPTY_VALUES, fromMailing, type MailingFormValues, toBody, toFormErrors } from './form-values.ts';
import { mailingKeys } from './keys.ts';
import { useMailingUploads } from './mailing-attachments.tsx';
import { MessageFields } from './message-fields.tsx';
import { ScheduleFields } from './schedule-fields.tsx';

const check = zodValidate(mailingCreateSchema, toBody);

/** A chosen WhatsApp template's every variable is needed: the provider refuses a send with one empty. */
function templateErrors(v: MailingFormValues, required: string): Record<string, string> {
  const out: Record<string, string> = {};
  v.template?.variables.forEach((x, i) => {
    if (!x.trim()) out[`template.variables.${i}`] = required;
  });
  return out;
}

export function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Paper p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby={id}>
      <Title order={3} size="h4" mb="md" id={id}>
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** The mailing's form: its message, its audience with the live count, when and how fast it is sent. */
export function MailingForm({ mailing }: { mailing: MailingDto | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const form = useForm<MailingFormValues>({
    initialValues: mailing ? fromMailing(mailing) : EMPTY_VALUES,
    validate: (v) => ({
      ...templateErrors(v, t('fields.requiredFields')),
      ...toFormErrors(check(v as unknown as Record<string, unknown>)),
    }),
  });
  const uploads = useMailingUploads(form);
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: MailingFormValues) => {
      const body = toBody(v);
      return mailing ? updateMailing(mailing.id, body) : createMailing(body);
    },
    onSuccess: async (saved) => {
      notifySuccess(t(mailing ? 'mailings.changed' : 'mailings.createdToast'));
      client.setQueryData(mailingKeys.one(saved.id), saved);
      await client.invalidateQueries({ queryKey: mailingKeys.all });
      navigate(`/admin/mailings/${saved.id}`);
    },
    onError: (err) => showServerErrors({ setErrors: (errors) => form.setErrors(toFormErrors(errors)) }, err),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))} data-testid="mailing-form">
      <Stack gap="lg">
        <Section title={t('mailings.sectionMessage')} id="mailing-message">
          <MessageFields form={form} uploads={uploads} />
        </Section>
        <Section title={t('mailings.sectionAudience')} id="mailing-audience">
          <AudienceFields form={form} />
        </Section>
        <Section title={t('mailings.sectionSending')} id="mailing-sending">
          <ScheduleFields form={form} />
        </Section>
        <Group justify="space-between" gap="sm">
          <Text size="xs" c="dimmed">
            {t('common.requiredHint')}
          </Text>
          <Group gap="sm">
            <Button
              variant="default"
              component={Link}
              to={mailing ? `/admin/mailings/${mailing.id}` : '/admin/mailings'}
            >
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              loading={save.isPending}
              disabled={uploads.uploading}
              data-testid="save-mailing"
            >
              {mailing ? t('common.saveChanges') : t('mailings.saveDraft')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

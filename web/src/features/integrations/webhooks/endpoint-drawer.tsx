import { Checkbox, Drawer, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  type WebhookEndpointDto,
  type WebhookEndpointSecretDto,
  type WebhookEventType,
  webhookEndpointCreateSchema,
} from '@smartconnect/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showServerErrors, zodValidate } from '../../../shared/form.ts';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { notifySuccess } from '../../../shared/notify.ts';
import { FormActions } from '../../../shared/ui/form-actions.tsx';
import { createEndpoint, updateEndpoint } from './api.ts';
import { eventNameKey } from './event-names.ts';
import { webhookKeys } from './keys.ts';

type Values = { url: string; description: string; eventTypes: WebhookEventType[] };

type Props = {
  /** null: a new endpoint; undefined: closed. */
  endpoint: WebhookEndpointDto | null | undefined;
  onClose: () => void;
  /** A new endpoint's secret, to show once. */
  onCreated: (created: WebhookEndpointSecretDto) => void;
};

/** The add/edit side page of an endpoint: its URL, description and event types. */
export function EndpointDrawer({ endpoint, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={endpoint !== undefined}
      onClose={onClose}
      position="right"
      title={t(endpoint ? 'webhooks.editTitle' : 'webhooks.newTitle')}
      styles={{ title: { fontWeight: 650, fontSize: 20 } }}
    >
      {endpoint !== undefined && (
        <EndpointForm
          key={endpoint?.id ?? 'new'}
          endpoint={endpoint}
          onClose={onClose}
          onCreated={onCreated}
        />
      )}
    </Drawer>
  );
}

function EndpointForm({ endpoint, onClose, onCreated }: Props & { endpoint: WebhookEndpointDto | null }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm<Values>({
    initialValues: {
      url: endpoint?.url ?? '',
      description: endpoint?.description ?? '',
      eventTypes: endpoint?.eventTypes ?? [],
    },
    validate: zodValidate(webhookEndpointCreateSchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: async (v: Values) => {
      if (endpoint) return { created: null, row: await updateEndpoint(endpoint.id, v) };
      return { created: await createEndpoint(v), row: null };
    },
    onSuccess: async ({ created }) => {
      notifySuccess(t(endpoint ? 'webhooks.changed' : 'webhooks.created'));
      await client.invalidateQueries({ queryKey: webhookKeys.all });
      onClose();
      if (created) onCreated(created);
    },
    onError: (err) => showServerErrors(form, err, { 'eventTypes.0': 'eventTypes' }),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="lg">
        <TextInput
          label={t('webhooks.url')}
          description={t('webhooks.urlHint')}
          placeholder="https://"
          withAsterisk
          maxLength={WEBHOOK_LIMITS.urlMax}
          data-testid="webhook-url"
          {...form.getInputProps('url')}
        />
        <Textarea
          label={t('webhooks.description')}
          description={t('webhooks.descriptionHint')}
          autosize
          minRows={2}
          maxLength={WEBHOOK_LIMITS.descriptionMax}
          data-testid="webhook-description"
          {...form.getInputProps('description')}
        />
        <Checkbox.Group
          label={t('webhooks.events')}
          description={t('webhooks.eventsHint')}
          withAsterisk
          {...form.getInputProps('eventTypes')}
        >
          <Stack gap="xs" mt="xs">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <Checkbox
                key={type}
                value={type}
                label={t(eventNameKey(type))}
                description={type}
                data-testid={`webhook-event-${type}`}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <FormActions onClose={onClose} readOnly={false} creating={!endpoint} pending={save.isPending} />
      </Stack>
    </form>
  );
}

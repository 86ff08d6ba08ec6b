import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { isApiError } from '../../shared/api/errors.ts';
import { showServerErrors } from '../../shared/form.ts';
import { i18n, translateError } from '../../shared/i18n/index.ts';
import { type ChannelFormValues, formPath } from './channel-form.ts';
import { mailboxFailure } from './types/email/failure.ts';
import type { ChannelTypeUi } from './types/types.ts';

const REASONS = ['unreachable', 'webhook', 'token', 'longpoll'] as const;

/** The provider's refusal in our words, by the server's reason code; the provider's own text is never shown. */
export function creationReason(reason: unknown, details?: Record<string, unknown>): string {
  if (reason === 'mailbox' && details) return mailboxFailure(details);
  const known = REASONS.find((r) => r === reason);
  return i18n.t(`channels.reasons.${known ?? 'other'}`);
}

/**
 * A failed create or save: §8 'Channel creation error' with the reason, §8 'already exists' as a toast (and under
 * the name), the spec's field messages under the fields.
 */
export function showChannelErrors(
  form: UseFormReturnType<ChannelFormValues>,
  err: unknown,
  ui?: ChannelTypeUi,
): void {
  if (!isApiError(err)) return;
  if (err.code === 'channelCreationException') {
    notifications.show({
      id: 'error-channelCreationException',
      color: 'red',
      title: translateError(err.code),
      message: creationReason(err.details?.reason, err.details),
      autoClose: 8000,
    });
    return;
  }
  if (err.code === 'channelAlreadyExistsException') form.setFieldError('name', translateError(err.code));
  const map = Object.fromEntries(Object.keys(err.fields ?? {}).map((k) => [k, formPath(k, ui)]));
  showServerErrors(form, err, map);
}

import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { isApiError } from '../../shared/api/errors.ts';
import { showServerErrors } from '../../shared/form.ts';
import { i18n, translateError } from '../../shared/i18n/index.ts';
import { type ChannelFormValues, formPath } from './channel-form.ts';

/**
 * The provider's refusal (`error.details.reason`, the server's English) in our words: the cause is recognised,
 * the provider's prose is never shown as it is.
 */
export function creationReason(reason: unknown): string {
  const text = typeof reason === 'string' ? reason : '';
  if (/could not be reached/i.test(text)) return i18n.t('channels.reasons.unreachable');
  if (/refused the webhook/i.test(text)) return i18n.t('channels.reasons.webhook');
  if (/refused the token/i.test(text)) return i18n.t('channels.reasons.token');
  return i18n.t('channels.reasons.other');
}

/**
 * A failed create or save: §8 'Channel creation error' with the reason, §8 'already exists' as a toast (and under
 * the name), the spec's field messages under the fields.
 */
export function showChannelErrors(form: UseFormReturnType<ChannelFormValues>, err: unknown): void {
  if (!isApiError(err)) return;
  if (err.code === 'channelCreationException') {
    notifications.show({
      id: 'error-channelCreationException',
      color: 'red',
      title: translateError(err.code),
      message: creationReason(err.details?.reason),
      autoClose: 8000,
    });
    return;
  }
  if (err.code === 'channelAlreadyExistsException') form.setFieldError('name', translateError(err.code));
  const map = Object.fromEntries(Object.keys(err.fields ?? {}).map((k) => [k, formPath(k)]));
  showServerErrors(form, err, map);
}

import { notifications } from '@mantine/notifications';
import { translateError } from './i18n/index.ts';

// Every toast's close button is named by the theme (app/theme.ts, Notification defaultProps).

export function notifySuccess(message: string): void {
  notifications.show({ color: 'teal', message, autoClose: 3000 });
}

/** A toast whose text comes from the §8 error code, never from server prose. */
export function notifyError(code: string): void {
  notifications.show({ id: `error-${code}`, color: 'red', message: translateError(code), autoClose: 5000 });
}

/** A red toast with a text of the app's own (already translated), e.g. a provider's refused login. */
export function notifyMessage(message: string): void {
  notifications.show({ color: 'red', message, autoClose: 5000 });
}

import { notifications } from '@mantine/notifications';
import { i18n, translateError } from './i18n/index.ts';

/** The toast's close button is named (axe: button-name), in the interface's language. */
const closeButtonProps = () => ({ 'aria-label': i18n.t('common.close') });

export function notifySuccess(message: string): void {
  notifications.show({ color: 'teal', message, autoClose: 3000, closeButtonProps: closeButtonProps() });
}

/** A toast whose text comes from the §8 error code, never from server prose. */
export function notifyError(code: string): void {
  notifications.show({
    id: `error-${code}`,
    color: 'red',
    message: translateError(code),
    autoClose: 5000,
    closeButtonProps: closeButtonProps(),
  });
}

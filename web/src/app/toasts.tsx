import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';

/**
 * Toasts sit in the middle of the header band, which holds no control (the logo is on the left, the In work / Break
 * switch and the user menu on the right), so they never cover the switch (issue 36).
 */
export default function Toasts() {
  return <Notifications position="top-center" containerWidth={380} zIndex={1000} />;
}

import { useEffect } from 'react';
import { get } from '../../shared/api/client.ts';
import { LoginPage } from '../auth/login-page.tsx';
import { embedSupportWidget } from './embed.ts';

/** The login page `/` with the platform's support widget, shown on this path only (§2.1). */
export function LoginWithSupport() {
  useEffect(() => {
    let remove: (() => void) | undefined;
    let left = false;
    get<{ channelId: string }>('/api/support/channel', { public: true })
      .then(({ channelId }) => {
        if (!left) remove = embedSupportWidget({ channelId });
      })
      .catch(() => undefined);
    return () => {
      left = true;
      remove?.();
    };
  }, []);
  return <LoginPage />;
}

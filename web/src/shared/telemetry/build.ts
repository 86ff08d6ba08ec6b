import { APP_META } from '@smartconnect/contracts/constants';

/** Version and environment of this build (Vite's mode: `production` for `vite build`). */
export const BUILD = {
  version: (import.meta.env.VITE_APP_VERSION as string | undefined) || APP_META.version,
  environment: import.meta.env.MODE || APP_META.environment,
};

import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api/errors.ts';
import { navigateTo as navigate } from './navigate.ts';
import { notifyError } from './notify.ts';

/** The router's registration (shared/navigate.ts: the public pages' entry imports it without react-query). */
export { setNavigator } from './navigate.ts';

export type QueryMeta = {
  /** An identity call (§7): a 500 is ignored silently. */
  identity?: boolean;
  /** Errors are handled by the screen itself (optional endpoints, inline states). */
  silent?: boolean;
};

/** Where a feature outside the plan leads (§6): the options screen, naming the option when known. */
export function optionsPath(option?: unknown): string {
  return typeof option === 'string' && option
    ? `/admin/options?option=${encodeURIComponent(option)}`
    : '/admin/options';
}

/**
 * §8 handling of a failed screen load: 403 -> /no-rights (a plan option the server refuses -> the options
 * screen), 404 -> /not-found, 500 toast unless an identity call.
 */
export function handleLoadError(err: unknown, meta: QueryMeta = {}): void {
  if (meta.silent || !isApiError(err)) return;
  if (err.status === 0 || err.code === 'unauthorizedException') return;
  if (err.code === 'optionUnavailableException') navigate(optionsPath(err.details?.option));
  else if (err.status === 403) navigate('/no-rights');
  else if (err.status === 404) navigate('/not-found');
  else if (err.status < 500 || !(meta.identity || err.identity)) notifyError(err.code);
}

/** §8 handling of a failed action: a toast from the code (forms show field errors themselves). */
export function handleActionError(err: unknown, meta: QueryMeta & { form?: boolean } = {}): void {
  if (meta.silent || meta.form || !isApiError(err)) return;
  if (err.status === 0 || err.code === 'unauthorizedException') return;
  if (err.status >= 500 && (meta.identity || err.identity)) return;
  notifyError(err.code);
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (err, query) => handleLoadError(err, query.meta as QueryMeta) }),
  mutationCache: new MutationCache({
    onError: (err, _v, _c, mutation) => handleActionError(err, mutation.meta as QueryMeta),
  }),
  defaultOptions: {
    queries: {
      retry: (count, err) => (isApiError(err) && err.status > 0 && err.status < 500 ? false : count < 1),
      refetchOnWindowFocus: false,
      staleTime: 15_000,
    },
  },
});

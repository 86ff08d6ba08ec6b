import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The public pages' form actions without react-query (it stays out of their download): `mutate` runs the call,
 * `isPending` while it runs, then onSuccess or onError. Like the app's form mutations, errors are the page's to
 * show (no toast).
 */
export function useAction<V, R>(options: {
  call: (value: V) => Promise<R>;
  onSuccess?: (result: R) => void;
  onError?: (err: unknown) => void;
}): { mutate: (value: V) => void; isPending: boolean } {
  const latest = useRef(options);
  latest.current = options;
  const [isPending, setPending] = useState(false);
  const mutate = useCallback((value: V) => {
    setPending(true);
    latest.current.call(value).then(
      (result) => {
        setPending(false);
        latest.current.onSuccess?.(result);
      },
      (err: unknown) => {
        setPending(false);
        latest.current.onError?.(err);
      },
    );
  }, []);
  return { mutate, isPending };
}

type Load<T> =
  | { isLoading: true; isFetching: true; isError: false; error: null; data: undefined }
  | { isLoading: false; isFetching: boolean; isError: true; error: unknown; data: undefined }
  | { isLoading: false; isFetching: boolean; isError: false; error: null; data: T };

/** A public page's one load (react-query-free): runs `load` when `key` changes; `refetch` runs it again. */
export function useLoad<T>(key: string, load: () => Promise<T>): Load<T> & { refetch: () => void } {
  const latest = useRef(load);
  latest.current = load;
  const [state, setState] = useState<Load<T>>({
    isLoading: true,
    isFetching: true,
    isError: false,
    error: null,
    data: undefined,
  });
  const [run, setRun] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` and `run` start a new load
  useEffect(() => {
    let live = true;
    setState((s) => (s.isLoading ? s : { ...s, isFetching: true }));
    latest.current().then(
      (data) => {
        if (live) setState({ isLoading: false, isFetching: false, isError: false, error: null, data });
      },
      (error: unknown) => {
        if (live) setState({ isLoading: false, isFetching: false, isError: true, error, data: undefined });
      },
    );
    return () => {
      live = false;
    };
  }, [key, run]);
  const refetch = useCallback(() => setRun((n) => n + 1), []);
  return { ...state, refetch };
}

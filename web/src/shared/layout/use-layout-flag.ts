import { useCallback, useState } from 'react';
import { useCurrentUser } from '../session.tsx';
import { type LayoutPrefs, readLayoutPrefs, writeLayoutPrefs } from './layout-prefs.ts';

/** One of the current user's layout flags with its setter (the value is written through at once). */
export function useLayoutFlag(name: keyof LayoutPrefs): [boolean, (value: boolean) => void] {
  const me = useCurrentUser();
  const [value, setValue] = useState(() => readLayoutPrefs(me.id)[name]);
  const set = useCallback(
    (next: boolean) => {
      setValue(next);
      writeLayoutPrefs(me.id, { [name]: next });
    },
    [me.id, name],
  );
  return [value, set];
}

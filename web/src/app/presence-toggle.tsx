import { SegmentedControl } from '@mantine/core';
import type { Presence } from '@smartconnect/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { patch } from '../shared/api/client.ts';
import { isApiError } from '../shared/api/errors.ts';
import { notifyError } from '../shared/notify.ts';
import { useCurrentUser } from './session.tsx';

/** The 'In work' / 'Break' status toggle (§4 operator presence). */
export function PresenceToggle() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [value, setValue] = useState<'online' | 'break'>(user.presence === 'break' ? 'break' : 'online');
  const change = useMutation({
    mutationFn: (status: Presence) => patch('/api/presence', { status }),
    meta: { silent: true },
    onError: (err, _status) => {
      // Until the presence service exists the toggle keeps its local state (404); other errors revert it.
      if (isApiError(err) && err.status === 404) return;
      setValue((v) => (v === 'online' ? 'break' : 'online'));
      if (isApiError(err) && err.status > 0 && err.status !== 401) notifyError(err.code);
    },
  });
  return (
    <SegmentedControl
      size="xs"
      radius="xl"
      aria-label={t('menu.workStatus')}
      data-testid="presence-toggle"
      value={value}
      color={value === 'online' ? 'teal' : 'orange'}
      onChange={(v) => {
        const next = v as 'online' | 'break';
        setValue(next);
        change.mutate(next);
      }}
      data={[
        { value: 'online', label: t('menu.inWork') },
        { value: 'break', label: t('menu.break') },
      ]}
    />
  );
}

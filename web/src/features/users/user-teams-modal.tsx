import { Button, Group, Modal, MultiSelect, Stack, Text } from '@mantine/core';
import type { UserDto } from '@smartconnect/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { put } from '../../shared/api/client.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useTeams } from '../teams/api.ts';
import { teamKeys } from '../teams/keys.ts';
import { userKeys } from './keys.ts';

/** AUTHORITY_TEAMS_UPDATE without account control: only a user's teams can be changed (§6). */
export function UserTeamsModal({ user, onClose }: { user: UserDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const teams = useTeams();
  const client = useQueryClient();
  const [value, setValue] = useState<string[] | null>(null);
  const selected = value ?? user?.teams.map((tm) => tm.id) ?? [];
  const save = useMutation({
    mutationFn: () => put<unknown>(`/api/users/${user?.id}/teams`, { teamIds: selected }),
    onSuccess: async () => {
      notifySuccess(t('users.changed'));
      await client.invalidateQueries({ queryKey: userKeys.all });
      await client.invalidateQueries({ queryKey: teamKeys.all });
      setValue(null);
      onClose();
    },
  });
  const close = () => {
    setValue(null);
    onClose();
  };
  return (
    <Modal
      opened={!!user}
      onClose={close}
      title={
        <Text fw={650}>
          <UserText>{user?.name}</UserText>
        </Text>
      }
    >
      <Stack gap="md">
        <MultiSelect
          label={t('users.teams')}
          placeholder={t('users.teamsPlaceholder')}
          searchable
          data={(teams.data ?? []).map((tm) => ({ value: tm.id, label: tm.name }))}
          value={selected}
          onChange={setValue}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button loading={save.isPending} onClick={() => save.mutate()}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

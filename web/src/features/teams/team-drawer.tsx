import { Alert, Drawer, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TeamDto, teamCreateSchema } from '@smartconnect/contracts';
import { IconLock } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { userKeys } from '../users/keys.ts';
import { createTeam, type TeamInput, updateTeam } from './api.ts';
import { teamKeys } from './keys.ts';
import { emptyTeam, TeamForm, type TeamFormValues, teamPayload, teamToForm } from './team-form.tsx';

type Props = { team: TeamDto | null; opened: boolean; readOnly: boolean; onClose: () => void };

/** The add/edit side page of a team (§2.6). */
export function TeamDrawer({ team, opened, readOnly, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title={t(readOnly ? 'teams.viewTitle' : team ? 'teams.editTitle' : 'teams.newTitle')}
      styles={{ title: { fontWeight: 650, fontSize: 20 } }}
    >
      {opened && <TeamEditor key={team?.id ?? 'new'} team={team} readOnly={readOnly} onClose={onClose} />}
    </Drawer>
  );
}

function TeamEditor({ team, readOnly, onClose }: Omit<Props, 'opened'>) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm<TeamFormValues>({
    initialValues: team ? teamToForm(team) : emptyTeam,
    validate: zodValidate(teamCreateSchema, teamPayload),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: TeamFormValues) => {
      const body = teamPayload(v) as TeamInput;
      return team ? updateTeam(team.id, body) : createTeam(body);
    },
    onSuccess: async () => {
      notifySuccess(t(team ? 'teams.changed' : 'teams.created'));
      await client.invalidateQueries({ queryKey: teamKeys.all });
      await client.invalidateQueries({ queryKey: userKeys.all });
      onClose();
    },
    onError: (err) => showServerErrors(form, err, { autoCloseMinutes: 'autoClose' }),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="lg">
        {readOnly && (
          <Alert variant="light" color="gray" icon={<IconLock size={18} />} data-testid="teams-read-only">
            {t('teams.readOnly')}
          </Alert>
        )}
        <TeamForm form={form} readOnly={readOnly} />
        <FormActions onClose={onClose} readOnly={readOnly} creating={!team} pending={save.isPending} />
      </Stack>
    </form>
  );
}

import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { type UserDto, userCreateSchema, userUpdateSchema } from '@smartconnect/contracts';
import { IconArrowLeft, IconPhotoExclamation } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../shared/api/errors.ts';
import { isolate } from '../../shared/bidi.ts';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { translateError, useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { useCurrentUser } from '../../shared/session.tsx';
import { AvatarDrop } from '../../shared/ui/avatar-drop.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { createUser, removePhoto, setUserActive, updateUser, uploadPhoto, useUser } from './api.ts';
import { userKeys } from './keys.ts';
import {
  toUserPayload,
  UserAccessFields,
  type UserFormValues,
  UserMainFields,
  UserPasswordFields,
} from './user-form-fields.tsx';
import { ActiveBadge } from './user-row.tsx';

const EMPTY: UserFormValues = {
  name: '',
  email: '',
  phone: '',
  roleId: '',
  teamIds: [],
  breakTimeoutMinutes: '',
  password: '',
  repeatPassword: '',
  active: true,
  language: 'eng',
};

const fromUser = (u: UserDto): UserFormValues => ({
  ...EMPTY,
  name: u.name,
  email: u.email,
  phone: u.phone ?? '',
  roleId: u.role.id,
  teamIds: u.teams.map((t) => t.id),
  breakTimeoutMinutes: u.breakTimeoutMinutes ?? '',
  active: u.active,
  language: u.language,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Navigation state of a user created whose photo could not be uploaded: the §8 code of that failure. */
type EditState = { photoError?: string } | null;

/** /admin/users/edit (new) and /admin/users/edit/:id: every §3 user field with the §5 messages. */
export function UserEditPage() {
  const { id } = useParams();
  // An id that cannot exist is a missing page, not a failed request (the server would answer 400).
  const valid = !id || UUID.test(id);
  const user = useUser(valid ? id : undefined);
  if (!valid) return <Navigate to="/not-found" replace />;
  if (id && !user.data) {
    // 403 and 404 leave for /no-rights and /not-found; a server or network failure can be retried here.
    const leaving = isApiError(user.error) && (user.error.status === 403 || user.error.status === 404);
    if (user.isError && !leaving)
      return (
        <Paper>
          <ErrorState onRetry={() => void user.refetch()} retrying={user.isFetching} />
        </Paper>
      );
    return <SectionLoader />;
  }
  return <UserEditor key={id ?? 'new'} user={user.data} />;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper p="xl">
      <Title order={4} mb="lg">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function UserEditor({ user }: { user?: UserDto }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const client = useQueryClient();
  const organisation = useCurrentUser().organisation;
  const isNew = !user;
  const [photo, setPhoto] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(user?.photoUrl ?? null);
  const [photoError, setPhotoError] = useState((location.state as EditState)?.photoError ?? null);
  useEffect(() => () => void (preview?.startsWith('blob:') && URL.revokeObjectURL(preview)), [preview]);
  // The notice is kept in this screen's state; a reload must not show it again.
  useEffect(() => {
    if ((location.state as EditState)?.photoError)
      navigate(location.pathname, { replace: true, state: null });
  }, [location, navigate]);

  const form = useForm<UserFormValues>({
    // A new account speaks the organisation's language until chosen otherwise.
    initialValues: user ? fromUser(user) : { ...EMPTY, language: organisation.language },
    validate: zodValidate(isNew ? userCreateSchema : userUpdateSchema, (v: UserFormValues) =>
      toUserPayload(v, isNew),
    ),
  });

  const save = useMutation({
    meta: { form: true },
    mutationFn: async (values: UserFormValues) => {
      const body = toUserPayload(values, isNew);
      if (!isNew) return { saved: await updateUser(user.id, body), photoFailure: null };
      const saved = await createUser(body);
      if (!photo) return { saved, photoFailure: null };
      try {
        await uploadPhoto(`/api/users/${saved.id}/photo`, photo);
        return { saved, photoFailure: null };
      } catch (err) {
        return { saved, photoFailure: isApiError(err) ? err.code : 'unknownException' };
      }
    },
    onSuccess: async ({ saved, photoFailure }) => {
      notifySuccess(t(isNew ? 'users.created' : 'users.changed'));
      await client.invalidateQueries({ queryKey: userKeys.all });
      // The user exists now: go on editing it, so that submitting again cannot create it twice.
      if (photoFailure)
        navigate(`/admin/users/edit/${saved.id}`, { replace: true, state: { photoError: photoFailure } });
      else navigate('/admin/users/all');
    },
    onError: (err) => showServerErrors(form, err),
  });

  const photoChange = useMutation({
    mutationFn: (file: File | null) =>
      file ? uploadPhoto(`/api/users/${user?.id}/photo`, file) : removePhoto(`/api/users/${user?.id}/photo`),
    onSuccess: async (updated) => {
      setPreview(
        updated && typeof updated === 'object' && 'photoUrl' in updated
          ? (updated as UserDto).photoUrl
          : null,
      );
      setPhotoError(null);
      notifySuccess(t('avatar.changed'));
      await client.invalidateQueries({ queryKey: userKeys.all });
    },
  });

  const toggleActive = useMutation({
    mutationFn: (active: boolean) => setUserActive(user!.id, active),
    onSuccess: async (u) => {
      notifySuccess(t(u.active ? 'users.activated' : 'users.deactivated'));
      client.setQueryData(userKeys.one(u.id), u);
      await client.invalidateQueries({ queryKey: userKeys.all });
    },
  });

  const confirmDeactivate = () =>
    modals.openConfirmModal({
      title: t('users.deactivateTitle'),
      children: <Text size="sm">{t('users.deactivateText', { name: isolate(user?.name) })}</Text>,
      labels: { confirm: t('users.deactivate'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => toggleActive.mutate(false),
    });

  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="lg" maw={880}>
        <Anchor component={Link} to="/admin/users/all" size="sm" c="dimmed">
          <Group gap={4}>
            <IconArrowLeft size={14} /> {t('users.title')}
          </Group>
        </Anchor>
        <Group justify="space-between" align="center">
          <Group gap="sm">
            <Title order={2}>{isNew ? t('users.newTitle') : t('users.editTitle')}</Title>
            {/* The saved state: it changes only when Deactivate/Activate has succeeded. */}
            {user && <ActiveBadge active={user.active} />}
          </Group>
          {user &&
            (user.active ? (
              <Button
                variant="light"
                color="red"
                onClick={confirmDeactivate}
                loading={toggleActive.isPending}
              >
                {t('users.deactivate')}
              </Button>
            ) : (
              <Button
                variant="light"
                color="teal"
                onClick={() => toggleActive.mutate(true)}
                loading={toggleActive.isPending}
              >
                {t('users.activate')}
              </Button>
            ))}
        </Group>
        <Section title={t('users.sectionMain')}>
          <Stack gap="lg">
            {photoError && (
              <Alert
                color="orange"
                variant="light"
                icon={<IconPhotoExclamation size={20} />}
                title={t('users.photoFailed')}
                data-testid="photo-failed"
              >
                <Text size="sm">{translateError(photoError)}</Text>
                <Text size="sm">{t('users.photoRetry')}</Text>
              </Alert>
            )}
            <AvatarDrop
              name={form.values.name}
              photoUrl={preview}
              busy={photoChange.isPending}
              onFile={(file) => {
                if (isNew) {
                  setPhoto(file);
                  setPreview(URL.createObjectURL(file));
                } else photoChange.mutate(file);
              }}
              onRemove={() => {
                if (isNew) {
                  setPhoto(null);
                  setPreview(null);
                } else photoChange.mutate(null);
              }}
            />
            <UserMainFields form={form} user={user} />
          </Stack>
        </Section>
        <Section title={t('users.sectionAccess')}>
          <UserAccessFields form={form} />
        </Section>
        <Section title={t('users.sectionPassword')}>
          <UserPasswordFields form={form} isNew={isNew} />
        </Section>
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {t('common.requiredHint')}
          </Text>
          <Group>
            <Button variant="default" component={Link} to="/admin/users/all">
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {isNew ? t('common.create') : t('common.saveChanges')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

import { Button, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ClientProfileDto, clientCommentSchema } from '@smartconnect/contracts';
import { useMutation } from '@tanstack/react-query';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { addComment, useRefreshClients } from './api.ts';

/** Comments on a client (OPTION_COMMENT): newest first, with their author and time; a form to add one. */
export function ClientComments({ profile, canAdd }: { profile: ClientProfileDto; canAdd: boolean }) {
  const { t, i18n } = useTranslation();
  const refresh = useRefreshClients();
  const form = useForm({ initialValues: { text: '' }, validate: zodValidate(clientCommentSchema) });
  const add = useMutation({
    meta: { form: true },
    mutationFn: (v: { text: string }) => addComment(profile.id, v.text),
    onSuccess: async () => {
      notifySuccess(t('clientProfiles.commentAdded'));
      form.reset();
      await refresh(profile.id);
    },
    onError: (err) => showServerErrors(form, err),
  });
  const fmt = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
  return (
    <Stack gap="xs" data-testid="client-comments">
      {profile.comments.length === 0 && (
        <Text size="xs" c="dimmed">
          {t('clientProfiles.noComments')}
        </Text>
      )}
      {profile.comments.map((c) => (
        <Stack key={c.id} gap={0}>
          <Text size="xs" c="dimmed">
            <UserText>{c.author?.name ?? '—'}</UserText> · {fmt(c.createdAt)}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            <UserText>{c.text}</UserText>
          </Text>
        </Stack>
      ))}
      {canAdd && (
        <form noValidate onSubmit={form.onSubmit((v) => add.mutate(v))}>
          <Stack gap={4}>
            <Textarea
              size="xs"
              autosize
              minRows={2}
              aria-label={t('clientProfiles.commentPlaceholder')}
              placeholder={t('clientProfiles.commentPlaceholder')}
              {...form.getInputProps('text')}
              data-testid="comment-input"
            />
            <Button type="submit" size="xs" loading={add.isPending} style={{ alignSelf: 'flex-end' }}>
              {t('clientProfiles.addComment')}
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

import { Alert, Anchor, Group, Paper, Stack, Title } from '@mantine/core';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { useMailing } from './api.ts';
import { MailingForm } from './mailing-form.tsx';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** /admin/mailings/new and /admin/mailings/:id/edit: a draft or scheduled mailing's message, audience and timing. */
export function MailingFormPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const valid = !id || UUID.test(id);
  const mailing = useMailing(valid ? id : undefined);
  if (!valid) return <Navigate to="/not-found" replace />;
  const back = id ? `/admin/mailings/${id}` : '/admin/mailings';
  let body: ReactNode;
  if (id && !mailing.data)
    body =
      mailing.isError && !mailing.isFetching ? (
        <Paper>
          <ErrorState onRetry={() => void mailing.refetch()} retrying={mailing.isFetching} />
        </Paper>
      ) : (
        <SectionLoader />
      );
  else if (mailing.data && !['draft', 'scheduled'].includes(mailing.data.status))
    body = (
      <Alert variant="light" color="gray" icon={<IconLock size={18} />} data-testid="mailing-locked">
        {t('mailings.startedLocked')}
      </Alert>
    );
  else body = <MailingForm key={id ?? 'new'} mailing={mailing.data ?? null} />;
  return (
    <Stack gap="lg" maw={880}>
      <Anchor component={Link} to={back} size="sm" c="dimmed">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden /> {t(id ? 'mailings.backToMailing' : 'mailings.title')}
        </Group>
      </Anchor>
      <Title order={2}>{t(id ? 'mailings.editTitle' : 'mailings.newTitle')}</Title>
      {body}
    </Stack>
  );
}

import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { ClientFiles } from '../chats/side-panel/client-files.tsx';
import { ClientHistory } from '../chats/side-panel/client-history.tsx';
import { useProfile } from './api.ts';
import { ProfileCard } from './profile-card.tsx';

/** A client's page (/admin/clients/:id): the client card with its channel identities. */
export function ClientPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const profile = useProfile(id);
  if (profile.isLoading) return <SectionLoader />;
  if (!profile.data)
    return <ErrorState onRetry={() => void profile.refetch()} retrying={profile.isFetching} />;
  return (
    <>
      <PageHeader title={profile.data.name} subtitle={t('clientProfiles.card')} />
      <Paper p="md" maw={720}>
        <Stack gap="sm">
          {profile.data.contacts.map((c) => (
            <Text key={`${c.channelId}:${c.externalId}`} size="sm">
              <UserText>{c.username ? `@${c.username}` : `${c.name} (${c.externalId})`}</UserText>
            </Text>
          ))}
          <ProfileCard clientId={profile.data.id} />
        </Stack>
      </Paper>
      {/* The client's dialogs (each opens read-only in place) and the files exchanged with them (issue 36). */}
      <SimpleGrid cols={{ base: 1, md: 2 }} maw={720} mt="md">
        <Paper p="md" component="section" aria-labelledby="client-dialogs">
          <Title order={2} size="h5" mb="sm" id="client-dialogs">
            {t('workspace.history')}
          </Title>
          <ClientHistory clientId={profile.data.id} currentChatId="" />
        </Paper>
        <Paper p="md" component="section" aria-labelledby="client-files">
          <Title order={2} size="h5" mb="sm" id="client-files">
            {t('workspace.files')}
          </Title>
          <ClientFiles clientId={profile.data.id} />
        </Paper>
      </SimpleGrid>
    </>
  );
}

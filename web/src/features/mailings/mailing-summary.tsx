import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { MailingDto } from '@smartconnect/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { dateFormat } from '../../shared/intl.ts';
import { useAccess } from '../../shared/session.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useCompanies, useStatuses, useUsers } from '../client-profiles/api.ts';
import { TemplateText } from '../templates/template-text.tsx';
import { CountPanel, useLiveCount } from './audience-count.tsx';

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="gray.7">
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** What the mailing sends, to whom and when; before it starts, who its audience holds now. */
export function MailingSummary({ mailing: m }: { mailing: MailingDto }) {
  const { t, i18n } = useTranslation();
  const { has } = useAccess();
  const a = m.audience;
  const statuses = useStatuses(has('OPTION_PROFILE_STATUS') && !!a.statusIds?.length);
  const companies = useCompanies('', has('OPTION_PROFILE') && !!a.companyIds?.length);
  const users = useUsers();
  const notStarted = m.status === 'draft' || m.status === 'scheduled';
  const live = useLiveCount(
    notStarted
      ? { channelId: m.channel.id, marketingType: m.marketingType, audience: a, template: !!m.template }
      : null,
  );
  const names = (ids: string[] | undefined, all: { id: string; name: string }[] | undefined) =>
    (ids ?? []).map((id) => all?.find((x) => x.id === id)?.name ?? '…').join(', ');
  const day = (iso: string) => dateFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(iso));
  const filters: [string, string][] = [
    ...(a.statusIds?.length
      ? [[t('mailings.statuses'), names(a.statusIds, statuses.data)] as [string, string]]
      : []),
    ...(a.tags?.length ? [[t('mailings.tags'), a.tags.join(', ')] as [string, string]] : []),
    ...(a.companyIds?.length
      ? [[t('mailings.companies'), names(a.companyIds, companies.data)] as [string, string]]
      : []),
    ...(a.managerIds?.length
      ? [[t('mailings.managers'), names(a.managerIds, users.data?.items)] as [string, string]]
      : []),
    ...(a.lastContactAfter
      ? [[t('mailings.lastContactAfter'), day(a.lastContactAfter)] as [string, string]]
      : []),
    ...(a.lastContactBefore
      ? [[t('mailings.lastContactBefore'), day(a.lastContactBefore)] as [string, string]]
      : []),
    ...(a.list?.length
      ? [[t('mailings.list'), t('mailings.listEntries', { count: a.list.length })] as [string, string]]
      : []),
  ];
  return (
    <Paper p="md" component="section" aria-labelledby="mailing-summary">
      <Title order={3} size="h5" mb="sm" id="mailing-summary">
        {t('mailings.summary')}
      </Title>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" component="dl" m={0}>
          <Line label={t('mailings.channel')}>
            <UserText>{m.channel.name}</UserText> ({t(`channels.types.${m.channel.type}`)})
          </Line>
          <Line label={t('mailings.marketingType')}>{t(`mailings.marketing.${m.marketingType}`)}</Line>
          <Line label={t('mailings.windowShort')}>
            {m.sendWindow ? `${m.sendWindow.from}–${m.sendWindow.to}` : t('mailings.anyTime')}
          </Line>
          <Line label={t('mailings.speed')}>
            {m.effectiveRate != null
              ? t('mailings.perSecond', { count: m.effectiveRate })
              : t('mailings.noLimit')}
          </Line>
          {filters.length === 0 && (
            <Line label={t('mailings.sectionAudience')}>{t('mailings.allContacts')}</Line>
          )}
          {filters.map(([label, value]) => (
            <Line key={label} label={label}>
              <UserText>{value}</UserText>
            </Line>
          ))}
        </SimpleGrid>
        {m.text.trim() && (
          <Paper withBorder p="sm" bg="gray.0">
            <Text size="xs" c="gray.7" mb={4}>
              {t('mailings.text')}
            </Text>
            <Text
              size="sm"
              style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              data-testid="mailing-text-view"
            >
              <TemplateText text={m.text} />
            </Text>
          </Paper>
        )}
        {m.attachments.length > 0 && (
          <div>
            <Text size="xs" c="gray.7" mb={4} id="mailing-files-title">
              {t('mailings.files')}
            </Text>
            <Stack
              gap={4}
              component="ul"
              m={0}
              p={0}
              style={{ listStyle: 'none' }}
              aria-labelledby="mailing-files-title"
              data-testid="mailing-files-view"
            >
              {m.attachments.map((f) => (
                <li key={f.url} style={{ overflowWrap: 'anywhere' }}>
                  <Anchor href={f.url} target="_blank" rel="noopener noreferrer" size="sm">
                    <UserText>{f.name || f.url}</UserText>
                  </Anchor>
                </li>
              ))}
            </Stack>
          </div>
        )}
        {m.template && (
          <Paper withBorder p="sm" bg="gray.0" data-testid="mailing-template-view">
            <Text size="xs" c="gray.7" mb={4}>
              {t('mailings.template')}
            </Text>
            <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
              <UserText>{m.template.name}</UserText>{' '}
              <Text span size="xs" c="gray.7">
                {t('mailings.templateLanguage', { code: m.template.languageCode })}
              </Text>
            </Text>
            {m.template.variables.map((v, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a variable is its position ({{1}}, {{2}}…)
              <Text key={`${i}-${v}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {t('mailings.templateVariable', { n: i + 1 })}: <TemplateText text={v} />
              </Text>
            ))}
          </Paper>
        )}
        {notStarted && <CountPanel live={live} />}
      </Stack>
    </Paper>
  );
}

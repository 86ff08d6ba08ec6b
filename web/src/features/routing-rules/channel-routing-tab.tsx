import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import type { ChannelDto } from '@smartconnect/contracts';
import { IconRoute } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useAccess } from '../../shared/session.tsx';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useRoutingRules } from './api.ts';
import { RuleSummary } from './rule-summary.tsx';
import { useRuleNames } from './use-rule-names.ts';

/** The channel page's 'routing' tab: the enabled rules that apply to this channel, in order, and the way to change them. */
export function ChannelRoutingTab({ channel }: { channel: ChannelDto }) {
  const { t } = useTranslation();
  const allowed = useAccess().has('OPTION_ROUTING');
  const rules = useRoutingRules(allowed);
  const names = useRuleNames();
  const team = isolate(channel.team.name);
  if (!allowed)
    return (
      <EmptyState
        icon={<IconRoute size={30} />}
        title={t('routingRules.title')}
        text={t('routingRules.channelTab.optionOff', { team })}
      />
    );
  if (rules.isLoading) return <SectionLoader />;
  if (rules.isError && !rules.data)
    return <ErrorState onRetry={() => void rules.refetch()} retrying={rules.isFetching} />;
  const applying = (rules.data ?? []).filter(
    (r) =>
      !r.isDefault &&
      r.enabled &&
      (!r.conditions.channelIds.length || r.conditions.channelIds.includes(channel.id)),
  );
  return (
    <Stack gap="sm">
      <Text size="sm" c="gray.7">
        {applying.length
          ? t('routingRules.channelTab.text', { team })
          : t('routingRules.channelTab.none', { team })}
      </Text>
      {applying.length > 0 && (
        <Stack gap={0} component="ol" p={0} m={0} data-testid="channel-rules" style={{ listStyle: 'none' }}>
          {applying.map((r, i) => (
            <Group
              key={r.id}
              component="li"
              wrap="nowrap"
              align="flex-start"
              gap="sm"
              py="xs"
              style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
            >
              <Badge variant="light" circle style={{ flexShrink: 0 }}>
                {i + 1}
              </Badge>
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  <UserText>{r.name}</UserText>
                </Text>
                <RuleSummary rule={r} names={names} />
              </Stack>
            </Group>
          ))}
        </Stack>
      )}
      <Anchor component={Link} to="/admin/preferences/routing-rules" size="sm">
        {t('routingRules.channelTab.manage')}
      </Anchor>
    </Stack>
  );
}

import { Badge, Group, Text } from '@mantine/core';
import type { RoutingRuleDto } from '@smartconnect/contracts';
import { IconArrowRight } from '@tabler/icons-react';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';

type Names = { team: (id: string | null) => string | undefined; channel: (id: string) => string | undefined };

/** A rule's conditions as small badges and its action as a line: what the list and the channel tab show. */
export function RuleSummary({ rule, names }: { rule: RoutingRuleDto; names: Names }) {
  const { t } = useTranslation();
  const c = rule.conditions;
  const badges: string[] = [];
  if (rule.isDefault) badges.push(t('routingRules.everyChat'));
  else {
    badges.push(t(`routingRules.clientsOptions.${c.clients}`));
    badges.push(t(`routingRules.messageTypes.${c.messageType}`));
    if (c.marketingType) badges.push(t(`routingRules.marketingTypes.${c.marketingType}`));
    for (const i of c.intentsInclude) badges.push(`+${t(`routingRules.intents.${i}`)}`);
    for (const i of c.intentsExclude) badges.push(`−${t(`routingRules.intents.${i}`)}`);
  }
  const channels = c.channelIds.map((id) => names.channel(id) ?? t('routingRules.someChannel'));
  const action = rule.isDefault
    ? t('routingRules.defaultAction')
    : rule.action.type === 'team'
      ? t('routingRules.actionTeam', {
          team: isolate(names.team(rule.action.teamId) ?? t('routingRules.someTeam')),
        })
      : t(`routingRules.actions.${rule.action.type}`);
  return (
    <>
      <Group gap={4} wrap="wrap">
        {badges.map((b) => (
          <Badge key={b} size="sm" variant="light" color="gray" tt="none">
            {b}
          </Badge>
        ))}
        {channels.map((name, i) => (
          <Badge key={c.channelIds[i]} size="sm" variant="light" color="blue" tt="none" maw={220}>
            <UserText>{name}</UserText>
          </Badge>
        ))}
      </Group>
      <Group gap={4} wrap="nowrap" mt={4}>
        <IconArrowRight size={14} aria-hidden color="var(--mantine-color-gray-7)" />
        <Text size="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
          {action}
        </Text>
      </Group>
    </>
  );
}

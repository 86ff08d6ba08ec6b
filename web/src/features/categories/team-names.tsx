import { Badge, Group, Text } from '@mantine/core';
import type { CategoryDto } from '@smartconnect/contracts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useTeams } from '../teams/api.ts';

/** The teams a node is set for: 'All teams' at the top, 'As above' below, else their names. */
export function TeamNames({ node }: { node: CategoryDto }) {
  const { t } = useTranslation();
  const teams = useTeams();
  if (!node.teamIds.length)
    return (
      <Text size="sm" c="gray.7">
        {t(node.level === 1 ? 'requestCategories.allTeams' : 'requestCategories.sameAsParent')}
      </Text>
    );
  return (
    <Group gap={4}>
      {node.teamIds.map((id) => (
        <Badge key={id} variant="light" color="gray" radius="sm" tt="none" fw={500}>
          <UserText>{teams.data?.find((x) => x.id === id)?.name ?? '…'}</UserText>
        </Badge>
      ))}
    </Group>
  );
}

import { Avatar, Badge, Group, Table, Text } from '@mantine/core';
import type { UserDto } from '@smartconnect/contracts';
import { initialsOf } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { formatDateTime } from './api.ts';

export function UserRow({ user, onOpen }: { user: UserDto; onOpen?: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <Table.Tr
      className={onOpen ? 'sc-table-row' : undefined}
      onClick={onOpen}
      data-testid={`user-${user.email}`}
    >
      <Table.Td>
        <Group gap="sm" wrap="nowrap">
          <Avatar src={user.photoUrl} name={initialsOf(user.name)} color="initials" radius="xl" size={36} />
          <Text size="sm" fw={600}>
            <UserText>{user.name}</UserText>
          </Text>
        </Group>
      </Table.Td>
      <Table.Td>
        <Text size="sm">
          <UserText>{user.email}</UserText>
        </Text>
      </Table.Td>
      <Table.Td>
        {user.teams.length ? (
          <Group gap={4}>
            {user.teams.map((tm) => (
              <Badge key={tm.id} variant="outline" color="gray" radius="sm" tt="none" fw={500}>
                <UserText>{tm.name}</UserText>
              </Badge>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('users.noTeams')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">
          <UserText>
            {user.role.builtIn ? t(`roleNames.${user.role.builtIn}`, user.role.name) : user.role.name}
          </UserText>
        </Text>
      </Table.Td>
      <Table.Td>
        <ActiveBadge active={user.active} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" c={user.lastActivityAt ? undefined : 'dimmed'}>
          {formatDateTime(user.lastActivityAt, i18n.language) ?? t('common.never')}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

export function ActiveBadge({ active }: { active: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={active ? 'teal' : 'gray'} radius="sm">
      {active ? t('common.active') : t('common.inactive')}
    </Badge>
  );
}

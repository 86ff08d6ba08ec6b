import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { initialsOf } from '../shared/bidi.ts';
import { UserText } from '../shared/ui/user-text.tsx';
import { useCurrentUser, useLogout } from './session.tsx';

export function UserMenu() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const logout = useLogout();
  return (
    <Menu position="bottom-end" width={220} shadow="md">
      <Menu.Target>
        <UnstyledButton data-testid="user-menu">
          <Group gap={8} wrap="nowrap">
            <Avatar src={user.photoUrl} name={initialsOf(user.name)} color="initials" size={34} radius="xl" />
            <div style={{ lineHeight: 1.1 }}>
              <Text size="sm" fw={600} visibleFrom="md" lineClamp={1}>
                <UserText>{user.name}</UserText>
              </Text>
              <Text size="xs" c="dimmed" visibleFrom="md" lineClamp={1}>
                <UserText>
                  {user.role.builtIn ? t(`roleNames.${user.role.builtIn}`, user.role.name) : user.role.name}
                </UserText>
              </Text>
            </div>
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <UserText>{user.organisation.name}</UserText>
        </Menu.Label>
        <Menu.Item component={Link} to="/admin/profile/general" leftSection={<IconUserCircle size={16} />}>
          {t('menu.profile')}
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
          {t('menu.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconBell,
  IconBellOff,
  IconChevronDown,
  IconLogout,
  IconUserCircle,
  IconVolume,
  IconVolumeOff,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { initialsOf } from '../shared/bidi.ts';
import { useTranslation } from '../shared/i18n/index.ts';
import { useCurrentUser, useLogout } from '../shared/session.tsx';
import { UserText } from '../shared/ui/user-text.tsx';
import { type AttentionPrefs, playChime, readAttentionPrefs, writeAttentionPrefs } from './attention.ts';

/** The operator's choice of a chime and desktop notifications for new chats and messages (kept in this browser). */
function useAttentionPrefs() {
  const [prefs, setPrefs] = useState(readAttentionPrefs);
  const save = (next: AttentionPrefs) => {
    writeAttentionPrefs(next);
    setPrefs(next);
  };
  return { prefs, save };
}

export function UserMenu() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const logout = useLogout();
  const { prefs, save } = useAttentionPrefs();
  const canNotify = typeof Notification !== 'undefined';
  const toggleSound = () => {
    save({ ...prefs, sound: !prefs.sound });
    // Enabling it plays the chime once: the operator hears what it sounds like (and the browser allows sound).
    if (!prefs.sound) playChime();
  };
  const toggleDesktop = async () => {
    if (prefs.desktop) return save({ ...prefs, desktop: false });
    const permission =
      Notification.permission === 'default'
        ? await Notification.requestPermission()
        : Notification.permission;
    if (permission === 'granted') save({ ...prefs, desktop: true });
    else notifications.show({ color: 'orange', message: t('attention.desktopDenied') });
  };
  const state = (on: boolean) => (on ? t('attention.on') : t('attention.off'));
  return (
    <Menu position="bottom-end" width={280} shadow="md">
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
        <Menu.Item
          closeMenuOnClick={false}
          data-testid="attention-sound"
          data-on={prefs.sound}
          leftSection={prefs.sound ? <IconVolume size={16} /> : <IconVolumeOff size={16} />}
          rightSection={
            <Text size="xs" c="dimmed">
              {state(prefs.sound)}
            </Text>
          }
          onClick={toggleSound}
        >
          {t('attention.sound')}
        </Menu.Item>
        {canNotify && (
          <Menu.Item
            closeMenuOnClick={false}
            data-testid="attention-desktop"
            data-on={prefs.desktop}
            leftSection={prefs.desktop ? <IconBell size={16} /> : <IconBellOff size={16} />}
            rightSection={
              <Text size="xs" c="dimmed">
                {state(prefs.desktop)}
              </Text>
            }
            onClick={() => void toggleDesktop()}
          >
            {t('attention.desktop')}
          </Menu.Item>
        )}
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
          {t('menu.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

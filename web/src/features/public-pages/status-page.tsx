import { Button, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconClockExclamation,
  IconLink,
  IconLock,
  IconMapSearch,
  IconServerOff,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { getToken } from '../../shared/storage.ts';
import { PublicFrame } from './public-frame.tsx';

const KINDS: Record<string, { key: string; icon: ReactNode; color: string; home?: boolean }> = {
  'not-found': { key: 'notFound', icon: <IconMapSearch size={34} />, color: 'brand', home: true },
  'service-unavailable': {
    key: 'serviceUnavailable',
    icon: <IconServerOff size={34} />,
    color: 'orange',
    home: true,
  },
  success: { key: 'success', icon: <IconCircleCheck size={34} />, color: 'teal' },
  'already-used': { key: 'alreadyUsed', icon: <IconClockExclamation size={34} />, color: 'yellow' },
  'no-rights': { key: 'noRights', icon: <IconLock size={34} />, color: 'red', home: true },
  'unknown-error': { key: 'unknownError', icon: <IconAlertTriangle size={34} />, color: 'red', home: true },
  'link-action': { key: 'linkAction', icon: <IconLink size={34} />, color: 'brand' },
  'bot-action': { key: 'linkAction', icon: <IconLink size={34} />, color: 'brand' },
};

/** The §2.1 status screens: not found, no rights, unknown error, rating success and so on. */
export function StatusPage() {
  const { t } = useTranslation();
  const kind = useLocation().pathname.split('/')[1] ?? '';
  const spec = KINDS[kind] ?? KINDS['not-found'];
  const signedIn = !!getToken();
  return (
    <PublicFrame>
      <ThemeIcon size={76} radius={76} variant="light" color={spec.color}>
        {spec.icon}
      </ThemeIcon>
      <Title order={2} data-testid="status-title">
        {t(`pages.${spec.key}Title`)}
      </Title>
      <Text c="dimmed">{t(`pages.${spec.key}Text`)}</Text>
      {spec.home && (
        <Button component={Link} to={signedIn ? '/admin' : '/'} mt="sm" size="md">
          {signedIn ? t('common.goAdmin') : t('common.goHome')}
        </Button>
      )}
    </PublicFrame>
  );
}

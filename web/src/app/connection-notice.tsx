import { Button, Group, Paper, Text, ThemeIcon } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { onConnectionChange, probeConnection, reportConnectionLost } from '../shared/api/connection.ts';
import { useTranslation } from '../shared/i18n/index.ts';

const probe = () => void probeConnection();

/**
 * §4 connection loss: 'No connection to the server.' with a refresh button. It goes away when a later
 * call gets through, or when the browser is back online and the server answers /api/health.
 */
export function ConnectionNotice() {
  const { t } = useTranslation();
  const [lost, setLost] = useState(false);
  useEffect(() => {
    const off = onConnectionChange(setLost);
    window.addEventListener('offline', reportConnectionLost);
    window.addEventListener('online', probe);
    return () => {
      off();
      window.removeEventListener('offline', reportConnectionLost);
      window.removeEventListener('online', probe);
    };
  }, []);
  if (!lost) return null;
  return (
    <Paper
      role="alert"
      shadow="lg"
      p="sm"
      pl="md"
      style={{ position: 'fixed', bottom: 24, left: '50%', transform: 'translateX(-50%)', zIndex: 1100 }}
    >
      <Group gap="md" wrap="nowrap">
        <ThemeIcon color="red" variant="light" radius="xl">
          <IconWifiOff size={18} />
        </ThemeIcon>
        <Text size="sm" fw={500}>
          {t('notices.connectionLost')}
        </Text>
        <Button size="xs" onClick={() => window.location.reload()}>
          {t('common.refresh')}
        </Button>
      </Group>
    </Paper>
  );
}

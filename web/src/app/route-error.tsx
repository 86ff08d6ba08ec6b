import { Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconWifiOff } from '@tabler/icons-react';
import { Component, type ReactNode, useEffect } from 'react';
import { useTranslation } from '../shared/i18n/index.ts';
import { ERROR_ICON, setPageTitle } from '../shared/title.ts';

/** A screen's code could not load (offline, or a new deployment removed the old chunk). */
const isChunkError = (e: unknown) =>
  e instanceof Error &&
  /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(e.message);

/** Never a blank page or a stack trace: a failed screen shows a notice with a refresh button. */
export function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const chunk = isChunkError(error);
  useEffect(() => {
    if (!chunk) console.error(error);
  }, [chunk, error]);
  // The root layout (and its title manager) is gone: this screen names itself, with the error icon.
  useEffect(() => {
    setPageTitle(chunk ? undefined : t('pages.unknownErrorTitle'), ERROR_ICON);
  }, [chunk, t]);
  return (
    <Center mih="100vh" p="md">
      <Paper p={40} maw={480} w="100%" shadow="md" role="alert">
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={72} radius={72} variant="light" color={chunk ? 'orange' : 'red'}>
            {chunk ? <IconWifiOff size={32} /> : <IconAlertTriangle size={32} />}
          </ThemeIcon>
          <Title order={2}>{chunk ? t('notices.connectionLost') : t('pages.unknownErrorTitle')}</Title>
          {!chunk && <Text c="dimmed">{t('pages.unknownErrorText')}</Text>}
          <Button size="md" onClick={() => window.location.reload()}>
            {t('common.refresh')}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}

/** The routes' error boundary (app.tsx): a failed screen shows RouteError until the location changes. */
export class RouteErrorBoundary extends Component<
  { path: string; children: ReactNode },
  { error: unknown; path: string }
> {
  override state = { error: undefined as unknown, path: this.props.path };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: { path: string }, state: { error: unknown; path: string }) {
    return props.path === state.path ? null : { error: undefined, path: props.path };
  }

  override render() {
    return this.state.error === undefined ? this.props.children : <RouteError error={this.state.error} />;
  }
}

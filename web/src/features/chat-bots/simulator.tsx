import { Button, Paper, Stack, Text } from '@mantine/core';
import type { BotGraph } from '@smartconnect/contracts';
import { useTranslation } from 'react-i18next';

/**
 * The simulator (issue 18): try the draft as a customer would, step by step, reporting the path taken so the
 * editor highlights it. A placeholder here; the runtime's branch provides the real one with this same signature.
 */
export function BotSimulator(props: {
  graph: BotGraph;
  defaultMessage: string;
  onPath: (nodeIds: string[]) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" data-testid="bot-simulator">
      <Stack gap="sm">
        <Text fw={600}>{t('chatBots.simulator.title')}</Text>
        <Text size="sm" c="dimmed">
          {t('chatBots.simulator.soon')}
        </Text>
        <Button
          variant="default"
          onClick={() => {
            props.onPath([]);
            props.onClose();
          }}
        >
          {t('common.close')}
        </Button>
      </Stack>
    </Paper>
  );
}

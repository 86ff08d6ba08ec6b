import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { BotGraph } from '@smartconnect/contracts';
import { IconExternalLink, IconRefresh, IconRobot, IconSend, IconX } from '@tabler/icons-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { type SimState, simAnswer, simStart } from './simulator-model.ts';

/**
 * The editor's simulator (issue 18): a chat-like panel that runs the pure bot engine (contracts/src/bot-engine.ts,
 * the one the server runs) on the draft, step by step. The user types as the customer or presses the offered
 * buttons; `onPath` receives the ids of every node passed so far, so the editor highlights them on the canvas.
 * Restart begins again at the root (it also restarts when the draft changes).
 */
export function BotSimulator(props: {
  graph: BotGraph;
  defaultMessage: string;
  onPath: (nodeIds: string[]) => void;
  onClose: () => void;
}) {
  const { graph, defaultMessage, onPath, onClose } = props;
  const { t } = useTranslation();
  const [sim, setSim] = useState<SimState>(() => simStart(graph, defaultMessage));
  const [text, setText] = useState('');

  useEffect(() => {
    setSim(simStart(graph, defaultMessage));
  }, [graph, defaultMessage]);
  // The latest callback without re-running on each of the parent's renders (a new function every time: setting the
  // parent's state from here would otherwise loop, React error 185).
  const onPathRef = useRef(onPath);
  onPathRef.current = onPath;
  useEffect(() => {
    onPathRef.current(sim.path);
  }, [sim.path]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    setSim((s) => simAnswer(graph, defaultMessage, s, { text }));
    setText('');
  };
  const lastBot = [...sim.lines].reverse().find((l) => l.from === 'bot');
  const offered = !sim.dialog.ended && lastBot?.from === 'bot' ? lastBot.buttons : [];

  return (
    <Paper
      withBorder
      p="sm"
      w="100%"
      maw={420}
      data-testid="bot-simulator"
      aria-label={t('botRuntime.simulatorTitle')}
    >
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={3} size="h5">
          {t('botRuntime.simulatorTitle')}
        </Title>
        <Group gap={4} wrap="nowrap">
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconRefresh size={14} aria-hidden />}
            onClick={() => setSim(simStart(graph, defaultMessage))}
          >
            {t('botRuntime.restart')}
          </Button>
          <ActionIcon variant="subtle" color="gray" aria-label={t('botRuntime.close')} onClick={onClose}>
            <IconX size={16} aria-hidden />
          </ActionIcon>
        </Group>
      </Group>
      <ScrollArea.Autosize mah={360} type="auto">
        <Stack gap={6} role="log" aria-live="polite">
          {!graph.nodes.length && (
            <Text size="sm" c="gray.7">
              {t('botRuntime.empty')}
            </Text>
          )}
          {sim.lines.map((line, i) => (
            <Box
              // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows; a line never moves.
              key={i}
              style={{ alignSelf: line.from === 'customer' ? 'flex-end' : 'flex-start', maxWidth: '85%' }}
            >
              <Paper p={6} px="xs" bg={line.from === 'customer' ? 'blue.0' : 'gray.0'} radius="md">
                {line.from === 'bot' && (
                  <Badge
                    size="xs"
                    variant="light"
                    color="grape"
                    leftSection={<IconRobot size={10} aria-hidden />}
                  >
                    {t('botRuntime.bot')}
                  </Badge>
                )}
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  <UserText>{line.text}</UserText>
                </Text>
              </Paper>
            </Box>
          ))}
          {sim.final && (
            <Text size="xs" c="gray.7" ta="center" data-testid="simulator-final">
              {t('botRuntime.ended', { action: t(`botRuntime.finalActions.${sim.final.type}`) })}
            </Text>
          )}
        </Stack>
      </ScrollArea.Autosize>
      {offered.length > 0 && (
        <Group gap={4} mt="xs">
          {offered.map((b) =>
            b.url ? (
              <Button
                key={b.id}
                size="xs"
                variant="default"
                component="a"
                href={b.url}
                target="_blank"
                rel="noopener noreferrer"
                rightSection={<IconExternalLink size={12} aria-hidden />}
              >
                <UserText>{b.text}</UserText>
              </Button>
            ) : (
              <Button
                key={b.id}
                size="xs"
                variant="light"
                onClick={() =>
                  setSim((s) => simAnswer(graph, defaultMessage, s, { payload: b.id, label: b.text }))
                }
              >
                <UserText>{b.text}</UserText>
              </Button>
            ),
          )}
        </Group>
      )}
      <form onSubmit={submit}>
        <Group gap={4} mt="xs" wrap="nowrap">
          <TextInput
            flex={1}
            size="xs"
            value={text}
            disabled={sim.dialog.ended}
            onChange={(e) => setText(e.currentTarget.value)}
            placeholder={t('botRuntime.placeholder')}
            aria-label={t('botRuntime.placeholder')}
          />
          <ActionIcon type="submit" size="md" aria-label={t('botRuntime.send')} disabled={sim.dialog.ended}>
            <IconSend size={14} aria-hidden />
          </ActionIcon>
        </Group>
      </form>
    </Paper>
  );
}

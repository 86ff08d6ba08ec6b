import { Badge, Group, Stack, Text } from '@mantine/core';
import type { BotNode, BotStructureIssue } from '@smartconnect/contracts';
import { IconPaperclip } from '@tabler/icons-react';
import { Handle, type NodeProps, Position } from '@xyflow/react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';

export type BotNodeData = {
  node: BotNode;
  issues: BotStructureIssue[];
  unconnected: boolean;
  highlighted: boolean;
  selected: boolean;
  teamName?: string;
  operatorName?: string;
};

const row = { position: 'relative' as const, paddingRight: 14 };
const handleStyle = { width: 10, height: 10, background: 'var(--mantine-color-blue-6)' };

/**
 * A node card on the canvas: the reply, then one row per button, trigger, intent and default action, each with its
 * own source handle (drag from it to a node to draw the transition), and the final action. Its structure issues
 * (§8) are listed on it; a node with no connections is flagged.
 */
export function BotNodeCard({ data }: NodeProps & { data: BotNodeData }) {
  const { t } = useTranslation();
  const { node, issues } = data;
  const border = issues.length
    ? 'var(--mantine-color-red-6)'
    : data.highlighted
      ? 'var(--mantine-color-teal-6)'
      : data.selected
        ? 'var(--mantine-color-blue-6)'
        : 'var(--mantine-color-gray-4)';
  return (
    <div
      data-testid={`bot-node-${node.id}`}
      data-issues={issues.length}
      data-highlighted={data.highlighted || undefined}
      style={{
        width: 230,
        background: 'var(--mantine-color-body)',
        border: `2px solid ${border}`,
        boxShadow: data.highlighted ? '0 0 0 4px var(--mantine-color-teal-2)' : undefined,
        borderRadius: 10,
        padding: 10,
        fontSize: 12,
      }}
    >
      <Handle type="target" position={Position.Left} style={handleStyle} />
      <Group gap={4} mb={4}>
        {node.root && (
          <Badge size="xs" color="blue" variant="light">
            {t('chatBots.node.root')}
          </Badge>
        )}
        {data.unconnected && (
          <Badge size="xs" color="orange" variant="light" data-testid="unconnected">
            {t('chatBots.node.unconnected')}
          </Badge>
        )}
      </Group>
      <Text size="xs" fw={600} lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
        {node.reply.text ? (
          <UserText>{node.reply.text}</UserText>
        ) : node.reply.fileId ? null : (
          <i>{t('chatBots.node.noReply')}</i>
        )}
      </Text>
      {node.reply.fileId && (
        <Text size="xs" c="dimmed" data-testid="node-file" style={{ overflowWrap: 'anywhere' }}>
          <IconPaperclip size={12} aria-hidden style={{ verticalAlign: 'middle' }} />{' '}
          <UserText>{node.reply.fileName || t('chatBots.replyFile')}</UserText>
        </Text>
      )}
      <Stack gap={3} mt={6}>
        {node.buttons.map((b) => (
          <div key={b.id} style={row}>
            <Badge variant="outline" size="sm" fullWidth style={{ textTransform: 'none' }}>
              {b.text || '…'}
            </Badge>
            <Handle id={b.id} type="source" position={Position.Right} style={handleStyle} />
          </div>
        ))}
        {node.triggers.map((tr) => (
          <div key={tr.id} style={row}>
            <Text size="xs">
              ⏱ {tr.start}–{tr.end} {tr.timeZone}
            </Text>
            <Handle id={tr.id} type="source" position={Position.Right} style={handleStyle} />
          </div>
        ))}
        {node.intents.map((i) => (
          <div key={i.id} style={row}>
            <Text size="xs">
              💬 {i.intent ? t(`routingRules.intents.${i.intent}`) : t('chatBots.panel.chooseIntent')}
            </Text>
            <Handle id={i.id} type="source" position={Position.Right} style={handleStyle} />
          </div>
        ))}
        {node.actions.map((a) =>
          a.kind === 'default' ? (
            <div key={a.id} style={row}>
              <Text size="xs" c="dimmed">
                ↪ {t('chatBots.panel.defaultAction')}
              </Text>
              <Handle id={a.id} type="source" position={Position.Right} style={handleStyle} />
            </div>
          ) : (
            <Text key={a.id} size="xs" fw={600} c="grape.8">
              ■ {t(`chatBots.final.${a.type}`)}
              {a.type === 'team' && data.teamName ? `: ${data.teamName}` : ''}
              {a.type === 'operator' && data.operatorName ? `: ${data.operatorName}` : ''}
            </Text>
          ),
        )}
      </Stack>
      {issues.length > 0 && (
        <Stack gap={2} mt={6} data-testid="node-issues">
          {[...new Map(issues.map((i) => [`${i.code}-${i.elementId ?? ''}`, i])).entries()].map(
            ([key, i]) => (
              <Text key={key} size="xs" c="red.8">
                ⚠ {t(`chatBots.issues.${i.code}`)}
              </Text>
            ),
          )}
        </Stack>
      )}
    </div>
  );
}

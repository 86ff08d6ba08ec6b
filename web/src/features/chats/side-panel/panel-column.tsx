import { ActionIcon, Group, Paper, Text, Tooltip } from '@mantine/core';
import type { ChatDto } from '@smartconnect/contracts';
import { IconLayoutSidebarRightCollapse, IconLayoutSidebarRightExpand } from '@tabler/icons-react';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { useLayoutFlag } from '../../../shared/layout/use-layout-flag.ts';
import { SectionLoader } from '../../../shared/ui/full-loader.tsx';
import { ClientPanel } from './client-panel.tsx';

const TOGGLE = 'client-panel-toggle';
const BORDER = '1px solid var(--mantine-color-gray-3)';

/**
 * The client panel beside the conversation on a wide screen, foldable to a narrow strip so the conversation gets the
 * room (issue 36); the user's choice is kept (layout-prefs.ts). The toggle keeps the focus across the fold.
 */
export function ClientPanelColumn({ chat, ready }: { chat: ChatDto; ready: boolean }) {
  const { t } = useTranslation();
  const [folded, setFolded] = useLayoutFlag('clientPanelCollapsed');
  const toggle = () => {
    setFolded(!folded);
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-testid="${TOGGLE}"]`)?.focus());
  };
  const label = folded ? t('workspace.showClientPanel') : t('workspace.hideClientPanel');
  const button = (
    <Tooltip label={label} position="left">
      <ActionIcon
        variant="subtle"
        color="gray.7"
        size={36}
        onClick={toggle}
        aria-label={label}
        aria-expanded={!folded}
        aria-controls={folded ? undefined : 'client-panel-column'}
        data-testid={TOGGLE}
      >
        {folded ? <IconLayoutSidebarRightExpand size={20} /> : <IconLayoutSidebarRightCollapse size={20} />}
      </ActionIcon>
    </Tooltip>
  );
  if (folded)
    return (
      <Paper
        w={48}
        p={6}
        withBorder={false}
        radius={0}
        style={{ flexShrink: 0, borderLeft: BORDER }}
        data-testid="client-panel-rail"
      >
        {button}
      </Paper>
    );
  return (
    <Paper
      w={268}
      p={0}
      withBorder={false}
      radius={0}
      id="client-panel-column"
      style={{
        flexShrink: 0,
        overflow: 'hidden',
        display: 'flex',
        flexDirection: 'column',
        borderLeft: BORDER,
      }}
    >
      <Group gap="xs" px={6} py={6} wrap="nowrap" style={{ borderBottom: BORDER }}>
        {button}
        <Text size="sm" fw={600} c="gray.8">
          {t('workspace.clientPanel')}
        </Text>
      </Group>
      {ready ? <ClientPanel key={chat.client.id} chat={chat} /> : <SectionLoader />}
    </Paper>
  );
}

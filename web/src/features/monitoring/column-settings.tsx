import { ActionIcon, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { MONITORING_COLUMNS, type MonitoringSettings, type MonitoringView } from '@smartconnect/contracts';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { saveMonitoringSettings } from './api.ts';
import { monitoringKeys } from './keys.ts';

type Column = MonitoringSettings['columns'][number];
type Props = { view: MonitoringView; columns: Column[]; opened: boolean; onClose: () => void };

/** Shows or hides each column of a table and changes their order (buttons, so the keyboard does it all). */
export function ColumnSettings({ view, columns, opened, onClose }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [draft, setDraft] = useState(columns);
  useEffect(() => {
    if (opened) setDraft(columns);
  }, [opened, columns]);
  const save = useMutation({
    mutationFn: () => saveMonitoringSettings(view, draft),
    onSuccess: (saved) => {
      client.setQueryData(monitoringKeys.settings(view), saved);
      notifySuccess(t('monitoring.saved'));
      onClose();
    },
  });
  const move = (i: number, by: -1 | 1) => {
    const next = [...draft];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    setDraft(next);
  };
  const none = !draft.some((c) => c.visible);
  return (
    <Modal opened={opened} onClose={onClose} title={t('monitoring.settingsTitle')} centered>
      <Stack gap="xs" data-testid="monitoring-column-settings">
        <Text size="sm" c="dimmed">
          {t('monitoring.settingsHint')}
        </Text>
        {draft.map((c, i) => {
          const label = t(`monitoring.col.${c.key}`);
          return (
            <Group key={c.key} justify="space-between" wrap="nowrap">
              <Checkbox
                label={label}
                checked={c.visible}
                onChange={(e) => {
                  const visible = e.currentTarget.checked;
                  setDraft(draft.map((d) => (d.key === c.key ? { ...d, visible } : d)));
                }}
              />
              <Group gap={4} wrap="nowrap">
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('monitoring.moveUp', { name: label })}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('monitoring.moveDown', { name: label })}
                  disabled={i === draft.length - 1}
                  onClick={() => move(i, 1)}
                >
                  <IconArrowDown size={16} />
                </ActionIcon>
              </Group>
            </Group>
          );
        })}
        {none && (
          <Text size="sm" c="red" role="alert">
            {t('monitoring.atLeastOne')}
          </Text>
        )}
        <Group justify="space-between" mt="sm">
          <Button
            variant="subtle"
            onClick={() => setDraft(MONITORING_COLUMNS[view].map((key) => ({ key, visible: true })))}
          >
            {t('monitoring.reset')}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button onClick={() => save.mutate()} loading={save.isPending} disabled={none}>
              {t('common.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}

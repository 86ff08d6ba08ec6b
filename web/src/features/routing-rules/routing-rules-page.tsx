import { ActionIcon, Badge, Button, Group, Paper, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { RoutingRuleDto } from '@smartconnect/contracts';
import {
  IconArrowDown,
  IconArrowUp,
  IconGripVertical,
  IconLock,
  IconPencil,
  IconPlus,
  IconRoute,
  IconTrash,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useState } from 'react';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { RowAction } from '../../shared/ui/list-table.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { deleteRule, reorderRules, updateRule, useRoutingRules } from './api.ts';
import { ruleKeys } from './keys.ts';
import { RuleDrawer } from './rule-drawer.tsx';
import { RuleSummary } from './rule-summary.tsx';
import { useRuleNames } from './use-rule-names.ts';

/** Moves the item at `from` to `to` (both indexes of the list). */
export const moved = <T,>(list: T[], from: number, to: number): T[] => {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
};

/**
 * /admin/preferences/routing-rules: the rules in the order they are tried, reordered by drag-and-drop (or the
 * move buttons, from the keyboard), enabled or disabled, edited in a side page, deleted with a confirmation. The
 * default rule is pinned last and read-only.
 */
export function RoutingRulesPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const rules = useRoutingRules();
  const names = useRuleNames();
  const [drawer, setDrawer] = useState<{ rule: RoutingRuleDto | null } | null>(null);
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const own = (rules.data ?? []).filter((r) => !r.isDefault);
  const byDefault = (rules.data ?? []).find((r) => r.isDefault);

  const order = useMutation({
    mutationFn: (ids: string[]) => reorderRules(ids),
    onMutate: (ids) => {
      // The new order shows at once; the server's answer (or a refetch after a failure) settles it.
      const all = client.getQueryData<RoutingRuleDto[]>(ruleKeys.all) ?? [];
      const sorted = ids.map((id) => all.find((r) => r.id === id)).filter((r): r is RoutingRuleDto => !!r);
      client.setQueryData(ruleKeys.all, [...sorted, ...all.filter((r) => r.isDefault)]);
    },
    onSuccess: (page) => {
      client.setQueryData(ruleKeys.all, page.items);
      notifySuccess(t('routingRules.reordered'));
    },
    onError: () => void client.invalidateQueries({ queryKey: ruleKeys.all }),
  });
  const toggle = useMutation({
    mutationFn: (r: RoutingRuleDto) => updateRule(r.id, { enabled: !r.enabled }),
    onSuccess: async () => {
      notifySuccess(t('routingRules.changed'));
      await client.invalidateQueries({ queryKey: ruleKeys.all });
    },
  });
  const remove = useMutation({
    mutationFn: (r: RoutingRuleDto) => deleteRule(r.id),
    onSuccess: async () => {
      notifySuccess(t('routingRules.deleted'));
      await client.invalidateQueries({ queryKey: ruleKeys.all });
    },
  });
  const confirmDelete = (r: RoutingRuleDto) =>
    modals.openConfirmModal({
      title: t('routingRules.deleteTitle'),
      children: <Text size="sm">{t('routingRules.deleteText', { name: isolate(r.name) })}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(r),
    });
  const move = (from: number, to: number) => {
    if (to < 0 || to >= own.length || from === to) return;
    order.mutate(moved(own, from, to).map((r) => r.id));
  };
  const drop = (e: DragEvent, targetId: string) => {
    e.preventDefault();
    const from = own.findIndex((r) => r.id === dragged);
    const to = own.findIndex((r) => r.id === targetId);
    setDragged(null);
    setOver(null);
    if (from >= 0 && to >= 0) move(from, to);
  };

  return (
    <Paper p={0} style={{ overflow: 'hidden' }}>
      <Group justify="space-between" p="md" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <div style={{ flex: '1 1 260px' }}>
          <Text fw={650} size="lg" component="h2">
            {t('routingRules.title')}
          </Text>
          <Text size="sm" c="dimmed">
            {t('routingRules.subtitle')}
          </Text>
        </div>
        <Button leftSection={<IconPlus size={18} />} onClick={() => setDrawer({ rule: null })}>
          {t('routingRules.add')}
        </Button>
      </Group>
      {rules.isLoading ? (
        <SectionLoader />
      ) : rules.isError && !rules.data ? (
        <ErrorState onRetry={() => void rules.refetch()} retrying={rules.isFetching} />
      ) : (
        <Stack gap={0} component="ol" p={0} m={0} data-testid="routing-rules" style={{ listStyle: 'none' }}>
          {!own.length && (
            <li>
              <EmptyState
                icon={<IconRoute size={30} />}
                title={t('routingRules.empty')}
                text={t('routingRules.emptyHint')}
              />
            </li>
          )}
          {own.map((r, i) => (
            <Group
              key={r.id}
              component="li"
              wrap="wrap"
              align="flex-start"
              gap="sm"
              p="sm"
              data-testid={`rule-${r.name}`}
              draggable
              onDragStart={(e: DragEvent) => {
                setDragged(r.id);
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', r.id);
              }}
              onDragEnd={() => {
                setDragged(null);
                setOver(null);
              }}
              onDragOver={(e: DragEvent) => {
                e.preventDefault();
                if (over !== r.id) setOver(r.id);
              }}
              onDrop={(e: DragEvent) => drop(e, r.id)}
              style={{
                borderBottom: '1px solid var(--mantine-color-gray-2)',
                background: over === r.id && dragged !== r.id ? 'var(--mantine-color-blue-0)' : undefined,
                opacity: dragged === r.id ? 0.5 : 1,
                cursor: 'grab',
              }}
            >
              <Group wrap="nowrap" align="flex-start" gap="sm" style={{ flex: '1 1 260px', minWidth: 0 }}>
                <IconGripVertical
                  size={18}
                  aria-hidden
                  style={{ marginTop: 4, flexShrink: 0 }}
                  color="var(--mantine-color-gray-6)"
                />
                <Badge
                  variant="light"
                  circle
                  style={{ flexShrink: 0, marginTop: 2 }}
                  aria-label={t('routingRules.priority', { n: i + 1 })}
                >
                  {i + 1}
                </Badge>
                <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
                  <Text
                    fw={600}
                    size="sm"
                    style={{ overflowWrap: 'anywhere' }}
                    c={r.enabled ? undefined : 'gray.7'}
                  >
                    <UserText>{r.name}</UserText>
                    {!r.enabled && (
                      <Text span size="xs" c="gray.7" ml={6}>
                        ({t('routingRules.disabled')})
                      </Text>
                    )}
                  </Text>
                  <RuleSummary rule={r} names={names} />
                </Stack>
              </Group>
              <Group gap={4} wrap="nowrap" ml="auto" style={{ flexShrink: 0 }}>
                <Tooltip label={t('routingRules.enabled')}>
                  <Switch
                    size="sm"
                    mt={4}
                    checked={r.enabled}
                    onChange={() => toggle.mutate(r)}
                    aria-label={t('routingRules.enable', { name: isolate(r.name) })}
                  />
                </Tooltip>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  disabled={i === 0}
                  aria-label={t('routingRules.moveUp', { name: isolate(r.name) })}
                  onClick={() => move(i, i - 1)}
                >
                  <IconArrowUp size={18} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  disabled={i === own.length - 1}
                  aria-label={t('routingRules.moveDown', { name: isolate(r.name) })}
                  onClick={() => move(i, i + 1)}
                >
                  <IconArrowDown size={18} />
                </ActionIcon>
                <RowAction
                  label={t('common.edit')}
                  icon={<IconPencil size={18} />}
                  onClick={() => setDrawer({ rule: r })}
                />
                <RowAction
                  label={t('common.delete')}
                  color="red"
                  icon={<IconTrash size={18} />}
                  onClick={() => confirmDelete(r)}
                />
              </Group>
            </Group>
          ))}
          {byDefault && (
            <Group
              component="li"
              wrap="nowrap"
              align="flex-start"
              gap="sm"
              p="sm"
              data-testid="rule-default"
              bg="gray.0"
            >
              <IconLock
                size={18}
                aria-hidden
                style={{ marginTop: 4, flexShrink: 0 }}
                color="var(--mantine-color-gray-7)"
              />
              <Badge
                variant="light"
                color="gray"
                circle
                style={{ flexShrink: 0, marginTop: 2 }}
                aria-label={t('routingRules.priority', { n: own.length + 1 })}
              >
                {own.length + 1}
              </Badge>
              <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
                <Text fw={600} size="sm">
                  {t('routingRules.defaultName')}
                </Text>
                <RuleSummary rule={byDefault} names={names} />
              </Stack>
              <RowAction
                label={t('common.view')}
                icon={<IconLock size={18} />}
                onClick={() => setDrawer({ rule: byDefault })}
              />
            </Group>
          )}
        </Stack>
      )}
      <RuleDrawer opened={!!drawer} rule={drawer?.rule ?? null} onClose={() => setDrawer(null)} />
    </Paper>
  );
}

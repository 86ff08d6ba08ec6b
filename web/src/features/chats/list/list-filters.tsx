import { ActionIcon, Badge, Group, Indicator, Popover, Select, Stack, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconSearch, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { type ListFilters, useFilterOptions } from './list-api.ts';

/** Quick search and the channel / team / operator filters of the chat lists (operator: supervisors only). */
export function ListFiltersBar({
  value,
  onChange,
}: {
  value: ListFilters;
  onChange: (f: ListFilters) => void;
}) {
  const { t } = useTranslation();
  const options = useFilterOptions();
  const [text, setText] = useState(value.q ?? '');
  const [open, setOpen] = useState(false);
  const commit = useDebouncedCallback((q: string) => onChange({ ...value, q: q.trim() || undefined }), 300);
  const active = [value.channelId, value.teamId, value.operatorId].filter(Boolean).length;
  const select = (
    key: 'channelId' | 'teamId' | 'operatorId',
    label: string,
    data: { id: string; name: string }[],
  ) => (
    <Select
      label={label}
      placeholder={t('workspace.any')}
      clearable
      searchable
      comboboxProps={{ withinPortal: false }}
      data={data.map((d) => ({ value: d.id, label: d.name }))}
      value={value[key] ?? null}
      onChange={(v) => onChange({ ...value, [key]: v ?? undefined })}
      data-testid={`filter-${key}`}
    />
  );
  return (
    <Group gap="xs" wrap="nowrap">
      <TextInput
        flex={1}
        size="xs"
        leftSection={<IconSearch size={14} />}
        placeholder={t('workspace.quickSearch')}
        aria-label={t('workspace.quickSearch')}
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          commit(e.currentTarget.value);
        }}
        rightSection={
          text ? (
            <ActionIcon
              size="sm"
              variant="subtle"
              color="gray"
              aria-label={t('workspace.clearSearch')}
              onClick={() => {
                setText('');
                onChange({ ...value, q: undefined });
              }}
            >
              <IconX size={12} />
            </ActionIcon>
          ) : null
        }
        data-testid="quick-search"
      />
      <Indicator disabled={!active} label={active} size={16} offset={4}>
        {/* The button itself says it opens a dialog (the popover's roles would land on the indicator's box). */}
        <Popover
          position="bottom-end"
          shadow="md"
          width={260}
          trapFocus
          withRoles={false}
          opened={open}
          onChange={setOpen}
        >
          <Popover.Target>
            <ActionIcon
              variant="light"
              size="md"
              aria-label={t('workspace.filters')}
              aria-haspopup="dialog"
              aria-expanded={open}
              onClick={() => setOpen((o) => !o)}
              data-testid="list-filters"
            >
              <IconAdjustmentsHorizontal size={16} />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown role="dialog" aria-label={t('workspace.filters')}>
            <Stack gap="xs">
              {select('channelId', t('workspace.channel'), options.data?.channels ?? [])}
              {select('teamId', t('workspace.team'), options.data?.teams ?? [])}
              {!!options.data?.operators.length &&
                select('operatorId', t('workspace.operator'), options.data.operators)}
              {active > 0 && (
                <Badge
                  component="button"
                  variant="light"
                  style={{ cursor: 'pointer' }}
                  onClick={() => onChange({ q: value.q })}
                >
                  {t('workspace.resetFilters')}
                </Badge>
              )}
            </Stack>
          </Popover.Dropdown>
        </Popover>
      </Indicator>
    </Group>
  );
}

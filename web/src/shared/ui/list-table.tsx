import { ActionIcon, Table, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';

/** A column heading; an empty label with a width is the row-actions column. */
export type Heading = string | { label?: string; w?: number };

type Props = { minWidth: number; testId: string; headings: Heading[]; children: ReactNode };

/**
 * The shared look of the admin lists (users, teams, roles, channels): scrolls sideways on narrow screens, also from
 * the keyboard (the scrolling box takes the focus).
 */
export function ListTable({ minWidth, testId, headings, children }: Props) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native" tabIndex={0}>
      <Table verticalSpacing="sm" horizontalSpacing="md" data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {headings.map((h) => {
              const { label, w } = typeof h === 'string' ? { label: h, w: undefined } : h;
              return (
                <Table.Th key={label ?? 'actions'} w={w}>
                  {label}
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

type ActionProps = { label: string; icon: ReactNode; onClick: () => void; color?: string };

/** An icon button of a list row, named for screen readers and with its name as a tooltip. */
export function RowAction({ label, icon, onClick, color = 'gray' }: ActionProps) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color={color} aria-label={label} onClick={onClick}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}

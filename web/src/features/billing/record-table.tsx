import { Group, Paper, ScrollArea, Stack, Table, Title, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';

export type RecordColumn<T> = {
  /** The header; `hidden` keeps it for screen readers only (an actions column). */
  header: string;
  hidden?: boolean;
  cell: (row: T) => ReactNode;
  /** Props of the cell (`fw`, `ff`, `fz`, a data-testid). */
  td?: Record<string, unknown>;
};

/** What react-query's list answer gives the table. */
type ListQuery<T> = {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
  data?: { items: T[] };
};

/**
 * The billing screens' list (companies, plans, payments, documents): an optional title with its action, the
 * loading, error and empty states, then a table that scrolls sideways in a labelled, keyboard-reachable region.
 * `children` (a drawer) render beside it.
 */
export function RecordTable<T extends { id: string }>(props: {
  label: string;
  title?: boolean;
  action?: ReactNode;
  query: ListQuery<T>;
  empty: { icon: ReactNode; title: string };
  columns: RecordColumn<T>[];
  minWidth: number;
  testId: string;
  rowTestId?: (row: T) => string;
  children?: ReactNode;
}) {
  const { query, columns } = props;
  const items = query.data?.items ?? [];
  return (
    <Paper p="md">
      <Stack gap="md">
        {props.title && (
          <Group justify="space-between" wrap="wrap">
            <Title order={2} size="h4">
              {props.label}
            </Title>
            {props.action}
          </Group>
        )}
        {query.isPending ? (
          <SectionLoader />
        ) : query.isError ? (
          <ErrorState onRetry={() => query.refetch()} retrying={query.isFetching} />
        ) : items.length === 0 ? (
          <EmptyState icon={props.empty.icon} title={props.empty.title} />
        ) : (
          <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': props.label }}>
            <Table striped miw={props.minWidth} data-testid={props.testId}>
              <Table.Thead>
                <Table.Tr>
                  {columns.map((c) => (
                    <Table.Th key={c.header}>
                      {c.hidden ? <VisuallyHidden>{c.header}</VisuallyHidden> : c.header}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((row) => (
                  <Table.Tr key={row.id} data-testid={props.rowTestId?.(row)}>
                    {columns.map((c) => (
                      <Table.Td key={c.header} {...c.td}>
                        {c.cell(row)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Stack>
      {props.children}
    </Paper>
  );
}

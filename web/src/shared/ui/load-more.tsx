import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

/** The part of an infinite query a "load more" button reads. */
type Pages = { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };

/** The next cursor page of a list, on request; nothing when the list is complete. */
export function LoadMore({ list, children }: { list: Pages; children: ReactNode }) {
  if (!list.hasNextPage) return null;
  return (
    <Group justify="center" p="md">
      <Button variant="default" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
        {children}
      </Button>
    </Group>
  );
}

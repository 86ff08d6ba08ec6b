import { Badge } from '@mantine/core';
import { UserText } from '../../shared/ui/user-text.tsx';

/** A customer status in its palette colour (white text; every hex passes AA contrast). */
export function StatusBadge({ status }: { status: { name: string; hex: string } | null }) {
  if (!status) return null;
  return (
    <Badge size="sm" variant="filled" color={status.hex} c="white" data-testid="client-status">
      <UserText>{status.name}</UserText>
    </Badge>
  );
}

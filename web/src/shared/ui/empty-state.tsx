import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

type Props = { icon: ReactNode; title: string; text?: string; action?: ReactNode; color?: string };

/** The shared look of "nothing here" and "not found" states. */
export function EmptyState({ icon, title, text, action, color = 'brand' }: Props) {
  return (
    <Stack align="center" gap="sm" py={56} px="md" ta="center">
      <ThemeIcon size={64} radius="xl" variant="light" color={color}>
        {icon}
      </ThemeIcon>
      <Title order={4} mt="xs">
        {title}
      </Title>
      {text && (
        <Text c="dimmed" size="sm" maw={420}>
          {text}
        </Text>
      )}
      {action}
    </Stack>
  );
}

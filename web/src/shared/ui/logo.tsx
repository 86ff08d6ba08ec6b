import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconMessageChatbot } from '@tabler/icons-react';

/** The product's mark and name; `nameFrom` hides the name below a breakpoint (the admin header on a phone). */
export function Logo({
  size = 'md',
  inverted = false,
  nameFrom,
}: {
  size?: 'sm' | 'md' | 'lg';
  inverted?: boolean;
  nameFrom?: 'xs' | 'sm';
}) {
  const px = { sm: 28, md: 34, lg: 44 }[size];
  return (
    <Group gap={10} wrap="nowrap">
      <ThemeIcon size={px} radius="md" variant={inverted ? 'white' : 'filled'}>
        <IconMessageChatbot size={px * 0.62} stroke={1.8} />
      </ThemeIcon>
      <Text
        fw={750}
        fz={size === 'lg' ? 24 : size === 'md' ? 19 : 16}
        c={inverted ? 'white' : undefined}
        lts={-0.3}
        visibleFrom={nameFrom}
      >
        SmartConnect
      </Text>
    </Group>
  );
}

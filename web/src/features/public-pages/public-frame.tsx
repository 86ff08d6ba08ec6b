import { Box, Center, Group, Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { LanguageSwitch } from '../../shared/ui/language-switch.tsx';
import { Logo } from '../../shared/ui/logo.tsx';

/** The frame of public single-card screens (status pages, sign-up). */
export function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <Box
      mih="100vh"
      style={{ background: 'linear-gradient(160deg, var(--mantine-color-brand-0), #fff 55%)' }}
    >
      <Group justify="space-between" px="xl" py="lg">
        <Logo />
        <LanguageSwitch />
      </Group>
      <Center px="md" py={48}>
        <Paper w="100%" maw={520} p={40} shadow="md">
          <Stack align="center" ta="center" gap="md">
            {children}
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}

import { Box, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { LanguageSwitch } from '../../shared/ui/language-switch.tsx';
import { Logo } from '../../shared/ui/logo.tsx';
import { MarketingCarousel } from './marketing-carousel.tsx';

const BRAND_BACKGROUND =
  'radial-gradient(circle at 20% 20%, rgba(255,255,255,0.18), transparent 40%), linear-gradient(135deg, var(--mantine-color-brand-6), var(--mantine-color-brand-9))';

/**
 * Login and recovery: the form on the left, the brand panel with the carousel on the right; on narrow
 * screens the carousel stays, as a compact band under the form.
 */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <Box style={{ display: 'flex', minHeight: '100vh', background: '#fff' }}>
      <Stack style={{ flex: '1 1 520px' }} px={{ base: 'lg', sm: 56 }} py="xl" justify="space-between">
        <Group justify="space-between">
          <Logo />
          <LanguageSwitch />
        </Group>
        <Box w="100%" maw={400} mx="auto" py={{ base: 24, md: 40 }}>
          {children}
        </Box>
        <Box
          hiddenFrom="md"
          w="100%"
          maw={400}
          mx="auto"
          p="lg"
          style={{ borderRadius: 'var(--mantine-radius-lg)', background: BRAND_BACKGROUND }}
        >
          <MarketingCarousel compact />
        </Box>
        <Text size="xs" c="dimmed" ta="center">
          © {new Date().getFullYear()} SmartConnect
        </Text>
      </Stack>
      <Box
        visibleFrom="md"
        style={{
          flex: '1 1 560px',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          padding: 64,
          background: BRAND_BACKGROUND,
        }}
      >
        <MarketingCarousel />
      </Box>
    </Box>
  );
}

import { Center, Loader, Stack } from '@mantine/core';
import { Logo } from './logo.tsx';

export function FullLoader() {
  return (
    <Center h="100vh">
      <Stack align="center" gap="lg">
        <Logo size="lg" />
        <Loader size="sm" type="dots" />
      </Stack>
    </Center>
  );
}

export function SectionLoader() {
  return (
    <Center py={80}>
      <Loader type="dots" />
    </Center>
  );
}

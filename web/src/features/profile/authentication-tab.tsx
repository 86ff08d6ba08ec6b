import { Stack } from '@mantine/core';
import { PasswordCard } from './password-card.tsx';
import { TwoFactorCard } from './two-factor-card.tsx';

/** Profile -> authentication: password change and two-factor authentication. */
export function AuthenticationTab() {
  return (
    <Stack gap="lg">
      <PasswordCard />
      <TwoFactorCard />
    </Stack>
  );
}

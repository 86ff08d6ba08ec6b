import { Button, Text, ThemeIcon, Title } from '@mantine/core';
import { IconRocket } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicFrame } from './public-frame.tsx';

/** /signup: a clear 'not yet available' screen until sign-up's own issue. */
export function SignupPage() {
  const { t } = useTranslation();
  return (
    <PublicFrame>
      <ThemeIcon size={76} radius={76} variant="light">
        <IconRocket size={34} />
      </ThemeIcon>
      <Title order={2}>{t('pages.signupTitle')}</Title>
      <Text c="dimmed">{t('pages.signupText')}</Text>
      <Button component={Link} to="/" mt="sm" size="md">
        {t('restore.signIn')}
      </Button>
    </PublicFrame>
  );
}

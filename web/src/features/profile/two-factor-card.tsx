import { Badge, Button, Code, Group, Image, Paper, PinInput, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { patch, post } from '../../shared/api/client.ts';
import { isApiError } from '../../shared/api/errors.ts';
import { translateError, useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { ME_KEY, useCurrentUser } from '../../shared/session.tsx';

type Enrolment = { secret: string; otpauthUri: string; qr: string };

/** §4 2FA: enable by scanning the QR and entering a 6-digit code; disable with a code. */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const client = useQueryClient();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const generate = useMutation({
    mutationFn: () => post<Enrolment>('/api/auth/generate'),
    meta: { identity: true },
    onSuccess: (e) => {
      setEnrolment(e);
      setCode('');
      setError(null);
    },
  });
  // Leaving enrolment or disabling forgets the typed code and its error.
  const cancel = () => {
    setEnrolment(null);
    setDisabling(false);
    setCode('');
    setError(null);
  };
  const toggle = useMutation({
    meta: { form: true },
    mutationFn: (enabled: boolean) => patch('/api/auth/toggle', { enabled, totpCode: code }),
    onSuccess: async (_r, enabled) => {
      notifySuccess(t(enabled ? 'profile.enabled' : 'profile.disabledDone'));
      cancel();
      await client.invalidateQueries({ queryKey: ME_KEY });
    },
    onError: (err) => {
      if (isApiError(err) && err.status > 0 && err.code !== 'unauthorizedException')
        setError(translateError(err.code));
    },
  });
  const codeInput = (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {t('profile.code')}
      </Text>
      <PinInput
        length={6}
        type="number"
        oneTimeCode
        // Shown by a click on Enable or Disable: the code is what comes next.
        autoFocus
        value={code}
        onChange={(v) => {
          setCode(v);
          setError(null);
        }}
        error={!!error}
        ariaLabel={t('profile.code')}
        data-testid="profile-totp"
      />
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
  return (
    <Paper p="xl">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={4}>{t('profile.twoFactorTitle')}</Title>
          <Badge color={me.twoFactorEnabled ? 'teal' : 'gray'} variant="light" data-testid="two-factor-state">
            {me.twoFactorEnabled ? t('profile.twoFactorOn') : t('profile.twoFactorOff')}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {t('profile.twoFactorText')}
        </Text>
        {!me.twoFactorEnabled && !enrolment && (
          <Button w="fit-content" onClick={() => generate.mutate()} loading={generate.isPending}>
            {t('profile.enable')}
          </Button>
        )}
        {!me.twoFactorEnabled && enrolment && (
          <Group align="flex-start" gap="xl" wrap="wrap">
            <Image
              src={enrolment.qr}
              alt={t('profile.qrAlt')}
              w={180}
              h={180}
              radius="md"
              style={{ border: '1px solid var(--mantine-color-gray-3)' }}
            />
            <Stack gap="md" style={{ flex: 1, minWidth: 260 }}>
              <Text size="sm">{t('profile.scan')}</Text>
              <div>
                <Text size="xs" c="dimmed">
                  {t('profile.manualKey')}
                </Text>
                <Code data-testid="totp-secret" fz="sm">
                  {enrolment.secret}
                </Code>
              </div>
              {codeInput}
              <Group>
                <Button variant="default" onClick={cancel}>
                  {t('common.cancel')}
                </Button>
                <Button
                  disabled={code.length !== 6}
                  loading={toggle.isPending}
                  onClick={() => toggle.mutate(true)}
                >
                  {t('profile.confirmEnable')}
                </Button>
              </Group>
            </Stack>
          </Group>
        )}
        {me.twoFactorEnabled && !disabling && (
          <Button w="fit-content" variant="light" color="red" onClick={() => setDisabling(true)}>
            {t('profile.disable')}
          </Button>
        )}
        {me.twoFactorEnabled && disabling && (
          <Stack gap="md">
            <Text size="sm">{t('profile.disableHint')}</Text>
            {codeInput}
            <Group>
              <Button variant="default" onClick={cancel}>
                {t('common.cancel')}
              </Button>
              <Button
                color="red"
                disabled={code.length !== 6}
                loading={toggle.isPending}
                onClick={() => toggle.mutate(false)}
              >
                {t('profile.confirmDisable')}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

import { Alert, Anchor, Button, Center, PinInput, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { isApiError } from '../../shared/api/errors.ts';
import { translateError, useTranslation } from '../../shared/i18n/index.ts';
import { RichText } from '../../shared/ui/rich-text.tsx';
import { useAction } from '../../shared/use-call.ts';
import { twoFactorCall } from './api.ts';

type Props = { ticket: string; onDone: (token: string) => void; onRestart: (message?: string) => void };

/** Login step 2: the 6-digit authenticator code; a wrong code offers 'Enter again?'. */
export function TwoFactorStep({ ticket, onDone, onRestart }: Props) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [wrong, setWrong] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const verify = useAction({
    call: (value: string) => twoFactorCall({ ticket, code: value }),
    onSuccess: (r) => onDone(r.token),
    onError: (err) => {
      if (!isApiError(err) || err.status === 0) return;
      if (err.code === 'totpInvalidException' || err.code === 'totpBadFormatException') setWrong(true);
      else onRestart(translateError(err.code));
    },
  });
  const submit = (value: string) => {
    if (value.length === 6) verify.mutate(value);
  };
  const again = () => {
    setWrong(false);
    setCode('');
    setAttempt((a) => a + 1);
  };
  return (
    <Stack gap="lg">
      <ThemeIcon size={56} radius="md" variant="light">
        <IconShieldLock size={30} />
      </ThemeIcon>
      <div>
        <Title order={1} fz={28}>
          {t('login.twoFactorTitle')}
        </Title>
        <Text c="dimmed" mt={6}>
          {t('login.twoFactorHint')}
        </Text>
      </div>
      <Center>
        <PinInput
          key={attempt}
          length={6}
          type="number"
          size="lg"
          oneTimeCode
          autoFocus
          value={code}
          onChange={setCode}
          onComplete={submit}
          error={wrong}
          disabled={wrong || verify.isPending}
          ariaLabel={t('login.code')}
          data-testid="totp-input"
        />
      </Center>
      {wrong && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} data-testid="totp-error">
          <RichText
            text={t('login.wrongCode')}
            components={{
              again: <Anchor component="button" type="button" onClick={again} fw={600} size="sm" />,
            }}
          />
        </Alert>
      )}
      <Button
        size="md"
        fullWidth
        loading={verify.isPending}
        disabled={wrong || code.length !== 6}
        onClick={() => submit(code)}
      >
        {t('login.confirm')}
      </Button>
      <Anchor component="button" type="button" size="sm" onClick={() => onRestart()}>
        {t('login.otherAccount')}
      </Anchor>
    </Stack>
  );
}

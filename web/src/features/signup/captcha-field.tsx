import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type ComponentType, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { AltchaWidget, type CaptchaWidgetProps } from './altcha-widget.tsx';

/** The captcha providers the server may name (GET /api/signup/challenge `provider`). */
const WIDGETS: Record<'altcha', ComponentType<CaptchaWidgetProps>> = { altcha: AltchaWidget };

/** §9: the wrapper looks 10 times within 2000 ms whether the widget has started. */
export const CAPTCHA_POLLS = 10;
export const CAPTCHA_TIMEOUT_MS = 2000;

/**
 * The captcha wrapper: mounts the provider's widget and polls for its start; one that has not started after the
 * last poll gets §8's captcha warning, with a way to load it again.
 */
export function CaptchaField({
  onChange,
  error,
  timeoutMs = CAPTCHA_TIMEOUT_MS,
}: {
  onChange(payload: string | null): void;
  error?: string;
  timeoutMs?: number;
}) {
  const { t } = useTranslation();
  const started = useRef(false);
  const [late, setLate] = useState(false);
  const [mount, setMount] = useState(0);
  const Widget = WIDGETS.altcha;
  // The widget restarts when its callbacks change: the form's callback is read through a ref instead.
  const changeRef = useRef(onChange);
  changeRef.current = onChange;
  const change = useCallback((payload: string | null) => changeRef.current(payload), []);
  const onStarted = useCallback(() => {
    started.current = true;
    setLate(false);
  }, []);
  useEffect(() => {
    if (mount < 0) return;
    started.current = false;
    let polls = 0;
    const timer = setInterval(() => {
      polls++;
      if (started.current) clearInterval(timer);
      else if (polls >= CAPTCHA_POLLS) {
        clearInterval(timer);
        setLate(true);
      }
    }, timeoutMs / CAPTCHA_POLLS);
    return () => clearInterval(timer);
  }, [mount, timeoutMs]);
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {t('signup.captcha.label')}{' '}
        <Text span c="red" aria-hidden>
          *
        </Text>
      </Text>
      <Widget key={mount} onStarted={onStarted} onChange={change} />
      {late && (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          data-testid="captcha-warning"
        >
          <Text size="sm">{t('signup.captcha.warning')}</Text>
          <Button size="xs" variant="light" color="orange" mt="xs" onClick={() => setMount((m) => m + 1)}>
            {t('common.retry')}
          </Button>
        </Alert>
      )}
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

import { Button, Group, Loader, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconShieldCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { fetchChallenge } from './api.ts';
import { solvePow } from './pow.ts';

/** What a captcha widget of any provider gives the form: a start signal, then the payload to send (or null). */
export type CaptchaWidgetProps = { onStarted(): void; onChange(payload: string | null): void };

/** Solves in a Web Worker; where none can start, on the main thread in small chunks. */
function solve(
  task: { challenge: string; salt: string; max: number },
  signal: AbortSignal,
): Promise<number | null> {
  try {
    const worker = new Worker(new URL('./pow-worker.ts', import.meta.url), { type: 'module' });
    signal.addEventListener('abort', () => worker.terminate());
    return new Promise((resolve) => {
      worker.onmessage = (e: MessageEvent<{ number: number | null }>) => {
        worker.terminate();
        resolve(e.data.number);
      };
      worker.onerror = () => {
        worker.terminate();
        resolve(solvePow(task, signal));
      };
      worker.postMessage(task);
    });
  } catch {
    return solvePow(task, signal);
  }
}

/**
 * The self-hosted ALTCHA widget: fetches a signed challenge, proves the work in the background and hands the
 * form the base64 payload the server verifies. No third-party script, nothing to click.
 */
export function AltchaWidget({ onStarted, onChange }: CaptchaWidgetProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<'working' | 'done' | 'failed'>('working');
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt (Retry) fetches a new challenge
  useEffect(() => {
    const abort = new AbortController();
    setState('working');
    onChange(null);
    (async () => {
      const c = await fetchChallenge();
      if (abort.signal.aborted) return;
      onStarted();
      const number = await solve({ challenge: c.challenge, salt: c.salt, max: c.maxnumber }, abort.signal);
      if (abort.signal.aborted) return;
      if (number === null) throw new Error('no solution');
      const payload = {
        algorithm: c.algorithm,
        challenge: c.challenge,
        number,
        salt: c.salt,
        signature: c.signature,
      };
      onChange(btoa(JSON.stringify(payload)));
      setState('done');
    })().catch(() => {
      if (!abort.signal.aborted) setState('failed');
    });
    return () => abort.abort();
  }, [attempt, onStarted, onChange]);
  return (
    <Group
      gap="sm"
      p="sm"
      wrap="nowrap"
      data-testid="captcha"
      data-state={state}
      role="status"
      aria-live="polite"
      style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 'var(--mantine-radius-md)' }}
    >
      {state === 'working' && <Loader size="sm" aria-hidden />}
      {state === 'done' && (
        <ThemeIcon color="teal" variant="light" radius="xl" aria-hidden>
          <IconShieldCheck size={18} />
        </ThemeIcon>
      )}
      {state === 'failed' && (
        <ThemeIcon color="orange" variant="light" radius="xl" aria-hidden>
          <IconAlertTriangle size={18} />
        </ThemeIcon>
      )}
      <Text size="sm" style={{ flex: 1 }}>
        {t(`signup.captcha.${state}`)}
      </Text>
      {state === 'failed' && (
        <Button size="xs" variant="light" onClick={() => setAttempt((a) => a + 1)}>
          {t('common.retry')}
        </Button>
      )}
    </Group>
  );
}

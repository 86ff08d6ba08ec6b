// Before the contracts' schemas are used (shared/zod-csp.ts): this public page loads zod with RATING_VALUES.
import '../../shared/zod-csp.ts';
import { Button, Loader, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { type LinkActionDto, RATING_VALUES } from '@smartconnect/contracts';
import { IconStar } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { get, post } from '../../shared/api/client.ts';
import { ApiError } from '../../shared/api/errors.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { PublicFrame } from '../public-pages/public-frame.tsx';

/**
 * `/link-action/{uuid}`: the client rates the service 1..5 through the one-time link of a closed dialog. A choice
 * lands on /success; a used link on /already-used ('Rating already sent'); an unknown or expired one on /not-found.
 */
export function LinkActionPage() {
  const { t } = useTranslation();
  const { uuid = '' } = useParams();
  const navigate = useNavigate();
  const [ready, setReady] = useState(false);
  const [sending, setSending] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);

  const away = (err: unknown) => {
    if (err instanceof ApiError && err.status === 409) navigate('/already-used', { replace: true });
    else if (err instanceof ApiError && (err.status === 404 || err.status === 400))
      navigate('/not-found', { replace: true });
    else setFailed(true);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: read once per link
  useEffect(() => {
    get<LinkActionDto>(`/api/link-actions/${encodeURIComponent(uuid)}`, { public: true })
      .then((link) => (link.used ? navigate('/already-used', { replace: true }) : setReady(true)))
      .catch(away);
  }, [uuid]);

  const choose = (score: number) => {
    setSending(score);
    setFailed(false);
    post<LinkActionDto>(`/api/link-actions/${encodeURIComponent(uuid)}`, { score }, { public: true })
      .then(() => navigate('/success', { replace: true }))
      .catch(away)
      .finally(() => setSending(null));
  };

  return (
    <PublicFrame>
      <ThemeIcon size={76} radius={76} variant="light" color="yellow">
        <IconStar size={34} />
      </ThemeIcon>
      <Title order={2}>{t('rating.title')}</Title>
      <Text c="dimmed">{t('rating.text')}</Text>
      {!ready ? (
        <Loader aria-label={t('rating.loading')} />
      ) : (
        <SimpleGrid
          cols={{ base: 1, xs: 5 }}
          spacing="xs"
          w="100%"
          role="group"
          aria-label={t('rating.title')}
        >
          {RATING_VALUES.map((value, i) => (
            <Button
              key={value}
              variant="light"
              loading={sending === i + 1}
              disabled={sending !== null}
              onClick={() => choose(i + 1)}
              data-value={value}
            >
              {`${i + 1} · ${t(`rating.values.${value}`)}`}
            </Button>
          ))}
        </SimpleGrid>
      )}
      {failed && (
        <Text c="red" role="alert">
          {t('rating.failed')}
        </Text>
      )}
    </PublicFrame>
  );
}

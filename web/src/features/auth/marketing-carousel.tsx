import { Box, Group, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { useInterval } from '@mantine/hooks';
import { IconChartLine, IconLock, IconMessages, IconRoute, IconTemplate } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';

const SLIDES = [
  { n: 1, icon: IconMessages },
  { n: 2, icon: IconRoute },
  { n: 3, icon: IconLock },
  { n: 4, icon: IconTemplate },
  { n: 5, icon: IconChartLine },
];

/** The login page's carousel of five marketing texts (§2.3); `compact` for the band on narrow screens. */
export function MarketingCarousel({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const interval = useInterval(() => setIndex((i) => (i + 1) % SLIDES.length), 6000);
  // biome-ignore lint/correctness/useExhaustiveDependencies: start once, restart after a manual pick
  useEffect(() => {
    interval.start();
    return interval.stop;
  }, [index]);
  const slide = SLIDES[index];
  const Icon = slide.icon;
  const icon = (
    <ThemeIcon
      size={compact ? 40 : 56}
      radius="md"
      variant="white"
      mb={compact ? 0 : 'lg'}
      style={{ flexShrink: 0 }}
    >
      <Icon size={compact ? 22 : 30} stroke={1.6} />
    </ThemeIcon>
  );
  const text = (
    <div>
      <Title order={2} c="white" fz={compact ? 18 : 30} lh={1.25} mb={compact ? 4 : 'sm'}>
        {t(`carousel.s${slide.n}title`)}
      </Title>
      <Text c="brand.0" fz={compact ? 'sm' : 'lg'} lh={1.5}>
        {t(`carousel.s${slide.n}text`)}
      </Text>
    </div>
  );
  return (
    <Stack gap={compact ? 'md' : 'xl'} maw={440} data-testid={compact ? 'carousel-compact' : 'carousel'}>
      <Box key={slide.n} style={{ animation: 'sc-fade 400ms ease' }}>
        {compact ? (
          <Group gap="md" wrap="nowrap" align="flex-start">
            {icon}
            {text}
          </Group>
        ) : (
          <>
            {icon}
            {text}
          </>
        )}
      </Box>
      <Group gap={8} pl={compact ? 56 : 0}>
        {SLIDES.map((s, i) => (
          <UnstyledButton
            key={s.n}
            aria-label={t('carousel.slide', { n: i + 1, total: SLIDES.length })}
            aria-current={i === index ? 'true' : undefined}
            onClick={() => setIndex(i)}
            style={{
              width: i === index ? 28 : 10,
              height: 10,
              borderRadius: 10,
              background: i === index ? '#fff' : 'rgba(255,255,255,0.4)',
              transition: 'width 200ms ease',
            }}
          />
        ))}
      </Group>
    </Stack>
  );
}

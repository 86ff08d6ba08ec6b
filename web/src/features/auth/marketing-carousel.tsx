import { Box, Group, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { useInterval } from '@mantine/hooks';
import { IconChartLine, IconLock, IconMessages, IconRoute, IconTemplate } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const SLIDES = [
  { n: 1, icon: IconMessages },
  { n: 2, icon: IconRoute },
  { n: 3, icon: IconLock },
  { n: 4, icon: IconTemplate },
  { n: 5, icon: IconChartLine },
];

/** The login page's carousel of five marketing texts (§2.3). */
export function MarketingCarousel() {
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
  return (
    <Stack gap="xl" maw={440} data-testid="carousel">
      <Box key={slide.n} style={{ animation: 'sc-fade 400ms ease' }}>
        <ThemeIcon size={56} radius="md" variant="white" mb="lg">
          <Icon size={30} stroke={1.6} />
        </ThemeIcon>
        <Title order={2} c="white" fz={30} lh={1.2} mb="sm">
          {t(`carousel.s${slide.n}title`)}
        </Title>
        <Text c="brand.0" fz="lg" lh={1.5}>
          {t(`carousel.s${slide.n}text`)}
        </Text>
      </Box>
      <Group gap={8}>
        {SLIDES.map((s, i) => (
          <UnstyledButton
            key={s.n}
            aria-label={`${i + 1}`}
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

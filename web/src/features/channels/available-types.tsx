import { Badge, Group, Paper, SimpleGrid, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { CHANNEL_CATALOGUE, channelUi } from './types/registry.ts';
import type { ChannelTypeUi, TypeIcon } from './types/types.ts';

/** Types that can be connected first, then the ones coming soon, each in the catalogue's order. */
const ORDERED = [
  ...CHANNEL_CATALOGUE.filter((c) => channelUi(c.type)),
  ...CHANNEL_CATALOGUE.filter((c) => !channelUi(c.type)),
];

const cardStyle = { border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 };

function CardBody({ label, icon: Icon, ready }: { label: string; icon: TypeIcon; ready: boolean }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="sm" wrap="nowrap">
        <ThemeIcon variant="light" color={ready ? 'brand' : 'gray'} radius="md">
          <Icon size={18} />
        </ThemeIcon>
        <Text size="sm" fw={500} c={ready ? undefined : 'dimmed'}>
          {label}
        </Text>
      </Group>
      {/* A ready card is a button named 'Connect <type>': its visible text (the type) is part of that name. */}
      {ready ? (
        <ThemeIcon variant="light" color="brand" radius="xl" size="sm" aria-hidden>
          <IconPlus size={14} />
        </ThemeIcon>
      ) : (
        <Badge color="gray" variant="light" size="sm" style={{ flexShrink: 0 }}>
          {t('channels.soon')}
        </Badge>
      )}
    </Group>
  );
}

/** The types of §3 and the API channel: a type with a guide opens it, the others are coming soon (not a form). */
export function AvailableTypes({ onConnect }: { onConnect: (ui: ChannelTypeUi) => void }) {
  const { t } = useTranslation();
  return (
    <Paper p="md">
      <Title order={3} fz="lg" mb="md">
        {t('channels.available')}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" data-testid="channel-types">
        {ORDERED.map(({ type, icon }) => {
          const ui = channelUi(type);
          const label = t(`channels.types.${type}`);
          return ui ? (
            <UnstyledButton
              key={type}
              p="sm"
              style={cardStyle}
              className="sc-channel-type"
              aria-label={t('channels.connectType', { type: label })}
              data-testid={`connect-${type}`}
              onClick={() => onConnect(ui)}
            >
              <CardBody label={label} icon={icon} ready />
            </UnstyledButton>
          ) : (
            <div
              key={type}
              style={{ ...cardStyle, padding: 'var(--mantine-spacing-sm)', opacity: 0.75 }}
              aria-disabled
            >
              <CardBody label={label} icon={icon} ready={false} />
            </div>
          );
        })}
      </SimpleGrid>
    </Paper>
  );
}

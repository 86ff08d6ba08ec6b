import { ActionIcon, Anchor, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';

/** The one tag a site needs: `<script src="{PUBLIC_URL}/widget.js" data-channel="{id}" async></script>`. */
export const widgetSnippet = (channelId: string) =>
  `<script src="${window.location.origin}/widget.js" data-channel="${channelId}" async></script>`;

export function WidgetSnippet({ channelId }: { channelId: string }) {
  const { t } = useTranslation();
  const snippet = widgetSnippet(channelId);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {t('siteChat.snippet')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('siteChat.snippetHint')}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code
          block
          style={{ flex: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
          data-testid="widget-snippet"
        >
          {snippet}
        </Code>
        <CopyButton value={snippet}>
          {({ copied, copy }) => (
            <Tooltip label={t(copied ? 'siteChat.copied' : 'siteChat.copy')}>
              <ActionIcon variant="light" onClick={copy} aria-label={t('siteChat.copy')}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Anchor
        href={`/widget-preview/${channelId}`}
        target="_blank"
        size="sm"
        data-testid="widget-preview-link"
      >
        {t('siteChat.tryIt')}
      </Anchor>
    </Stack>
  );
}

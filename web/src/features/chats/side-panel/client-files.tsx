import { Anchor, Group, Stack, Text } from '@mantine/core';
import { IconFile, IconPhoto } from '@tabler/icons-react';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { UserText } from '../../../shared/ui/user-text.tsx';
import { formatSize } from '../conversation/attachments.tsx';
import { useClientFiles } from '../list/list-api.ts';

/** Files of the client's dialogs, newest first, each downloadable. */
export function ClientFiles({ clientId }: { clientId: string }) {
  const { t, i18n } = useTranslation();
  const files = useClientFiles(clientId);
  if (files.isLoading)
    return (
      <Text size="xs" c="dimmed">
        {t('common.loading')}
      </Text>
    );
  const items = files.data?.items ?? [];
  if (!items.length)
    return (
      <Text size="xs" c="dimmed">
        {t('workspace.noFiles')}
      </Text>
    );
  return (
    <Stack gap={4} data-testid="client-files">
      {items.map((f) => {
        const name = f.name ?? f.url.split('/').pop() ?? f.url;
        return (
          <Group key={`${f.messageId}:${f.url}`} gap={6} wrap="nowrap">
            {f.contentType?.startsWith('image/') ? <IconPhoto size={14} /> : <IconFile size={14} />}
            <Anchor
              href={f.url}
              target="_blank"
              rel="noopener noreferrer"
              size="xs"
              truncate
              flex={1}
              download
            >
              <UserText>{name}</UserText>
            </Anchor>
            {f.size != null && (
              <Text size="xs" c="dimmed" data-testid="file-size">
                {formatSize(f.size, i18n.language)}
              </Text>
            )}
            <Text size="xs" c="dimmed">
              {new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short' }).format(new Date(f.createdAt))}
            </Text>
          </Group>
        );
      })}
    </Stack>
  );
}

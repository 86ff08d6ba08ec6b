import { Anchor, Text } from '@mantine/core';
import type { ChatTopicDto } from '@smartconnect/contracts';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';

/** A link opens only on the web: the provider's page for the listing or order (never a script or data URL). */
const safeUrl = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : null);

/**
 * What a marketplace conversation is about (the Avito listing, the Ozon posting, the Yandex Market order): its
 * kind, title and number, linking to the provider's page when there is one.
 */
export function ChatTopic({
  topic,
  size = 'xs',
  withKind = true,
}: {
  topic: ChatTopicDto;
  size?: 'xs' | 'sm';
  /** Without a title, "Order 123"; false where the kind is already said beside it (the client panel's row): "123". */
  withKind?: boolean;
}) {
  const { t } = useTranslation();
  const label = t(`conversation.topic.${topic.kind}`, { id: topic.id });
  const url = safeUrl(topic.url);
  const title = <UserText>{topic.title || (withKind ? label : topic.id)}</UserText>;
  // The kind and number, then the title when the provider gave one (never a dangling "Listing 1: ").
  const full = topic.title ? `${label}: ${topic.title}` : label;
  return (
    <Text size={size} truncate style={{ minWidth: 0 }} data-testid="chat-topic" title={full}>
      {url ? (
        <Anchor href={url} target="_blank" rel="noopener noreferrer" size={size} aria-label={full}>
          {title} <IconExternalLink size={12} aria-hidden style={{ verticalAlign: 'middle' }} />
        </Anchor>
      ) : (
        title
      )}
    </Text>
  );
}

import { Anchor, Text } from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { UserText } from '../../../shared/ui/user-text.tsx';
import { splitQuoted } from './quoted.ts';

const textStyle = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

/**
 * A message's text as text (never HTML). A client's mail keeps its quoted history folded under a toggle: the
 * conversation already shows what was said before.
 */
export function MessageText({ text, fold }: { text: string; fold: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const id = useId();
  const { body, quoted } = fold ? splitQuoted(text) : { body: text, quoted: '' };
  return (
    <>
      <Text size="sm" dir="auto" style={textStyle}>
        <UserText>{body}</UserText>
      </Text>
      {quoted && (
        <>
          <Anchor
            component="button"
            type="button"
            size="xs"
            c="gray.7"
            aria-expanded={open}
            aria-controls={id}
            data-testid="quoted-toggle"
            onClick={() => setOpen((o) => !o)}
          >
            {open ? t('emailChannel.hideQuoted') : t('emailChannel.showQuoted')} ···
          </Anchor>
          <Text
            id={id}
            hidden={!open}
            size="sm"
            c="gray.7"
            dir="auto"
            data-testid="quoted-text"
            style={{ ...textStyle, borderLeft: '2px solid var(--mantine-color-gray-4)', paddingLeft: 8 }}
          >
            <UserText>{quoted}</UserText>
          </Text>
        </>
      )}
    </>
  );
}

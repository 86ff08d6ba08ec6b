import {
  ActionIcon,
  Badge,
  Box,
  CloseButton,
  FileButton,
  Group,
  Image,
  Progress,
  Stack,
  Switch,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { ATTACHMENT_LIMITS, MESSAGE_TEXT_MAX } from '@smartconnect/contracts';
import { IconLock, IconPaperclip, IconSend } from '@tabler/icons-react';
import { forwardRef, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useComposerInsert } from '../knowledge-base/insert-bus.ts';
import { KbButton } from '../knowledge-base/kb-button.tsx';
import { TemplatesButton, useSlashTemplates, useTemplatesEnabled } from '../templates/template-picker.tsx';
import { EmojiPicker } from './composer/emoji-picker.tsx';
import { sendOutgoing } from './composer/outbox.ts';
import type { Attachments } from './composer/use-attachments.ts';
import { useDraft } from './composer/use-draft.ts';
import { formatSize } from './conversation/attachments.tsx';
import { useComposerFocusTarget } from './shortcuts/use-workspace-keys.ts';
import { useTypingSender } from './typing.ts';
import { useUpsertMessage } from './use-chat-cache.ts';

export type ComposerHandle = { focus: () => void };

/** The files of the message being written: picture previews or names, upload progress, remove. */
function FileChips({ files }: { files: Attachments }) {
  const { t, i18n } = useTranslation();
  if (!files.files.length) return null;
  return (
    <Group
      gap="xs"
      wrap="wrap"
      aria-label={t('conversation.attachments')}
      role="list"
      data-testid="composer-files"
    >
      {files.files.map((f) => (
        <Box
          key={f.id}
          role="listitem"
          data-testid="composer-file"
          data-ready={f.attachment ? 'true' : 'false'}
          style={{
            border: '1px solid var(--mantine-color-gray-4)',
            borderRadius: 8,
            padding: 4,
            width: 148,
            background: 'white',
          }}
        >
          <Group gap={4} wrap="nowrap" align="center">
            {f.preview ? (
              <Image src={f.preview} alt="" w={32} h={32} radius="sm" fit="cover" />
            ) : (
              <IconPaperclip size={18} aria-hidden style={{ flexShrink: 0 }} />
            )}
            <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
              <Text size="xs" truncate>
                <UserText>{f.name}</UserText>
              </Text>
              <Text size="xs" c="gray.7">
                {formatSize(f.size, i18n.language)}
              </Text>
            </Stack>
            <CloseButton
              size="sm"
              aria-label={t('conversation.removeFile', { name: f.name })}
              onClick={() => files.remove(f.id)}
            />
          </Group>
          {!f.attachment && (
            <Progress
              value={Math.round(f.progress * 100)}
              size="xs"
              mt={4}
              aria-label={t('conversation.uploading', {
                name: f.name,
                percent: Math.round(f.progress * 100),
              })}
            />
          )}
        </Box>
      ))}
    </Group>
  );
}

/**
 * The message box: Enter sends, Shift+Enter starts a new line; emoji; files by button, paste or drop (on the whole
 * conversation); the switch makes it an internal note. The text is a draft per chat until sent; a sent message shows
 * at once and can be retried when it fails.
 */
export const Composer = forwardRef<
  ComposerHandle,
  { chatId: string; disabledReason: string | null; files: Attachments }
>(function Composer({ chatId, disabledReason, files }, ref) {
  const { t } = useTranslation();
  const [text, setText] = useDraft(chatId);
  const [internal, setInternal] = useState(false);
  const typed = useTypingSender(chatId, disabledReason === null && !internal);
  const upsert = useUpsertMessage();
  const area = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(ref, () => ({ focus: () => area.current?.focus() }), []);
  // R focuses this box (the shortcut waits for the chosen chat's box when a switch is still being drawn).
  useComposerFocusTarget(chatId, () => area.current?.focus());
  const disabled = disabledReason !== null;
  const templatesOn = useTemplatesEnabled();
  const slash = useSlashTemplates({ chatId, text, setText, area, enabled: templatesOn && !disabled });
  const canSend = !disabled && !files.uploading && (text.trim() !== '' || files.ready.length > 0);
  const submit = () => {
    if (!canSend) return;
    sendOutgoing({ chatId, text: text.trim(), internal, attachments: files.ready }, (m) => upsert(m));
    setText('');
    files.clear();
  };
  const insert = (s: string) => {
    const el = area.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    const next = text.slice(0, start) + s + text.slice(end);
    setText(next.slice(0, MESSAGE_TEXT_MAX));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + s.length, start + s.length);
    });
  };
  // The side panel's knowledge base inserts here too.
  useComposerInsert(chatId, (s) => !disabled && insert(s));
  const label = internal ? t('chat.notePlaceholder') : t('chat.placeholder');
  return (
    <Stack
      gap={6}
      p="sm"
      data-testid="composer"
      data-internal={internal || undefined}
      style={{
        borderTop: internal
          ? '2px dashed var(--mantine-color-yellow-8)'
          : '1px solid var(--mantine-color-gray-3)',
        background: internal ? 'var(--mantine-color-yellow-0)' : 'white',
      }}
    >
      {internal && (
        <Badge color="yellow.9" variant="light" leftSection={<IconLock size={12} aria-hidden />} tt="none">
          {t('conversation.noteMode')}
        </Badge>
      )}
      <FileChips files={files} />
      {slash.menu}
      <Textarea
        ref={area}
        autosize
        minRows={1}
        maxRows={6}
        maxLength={MESSAGE_TEXT_MAX}
        aria-label={label}
        placeholder={disabledReason ?? label}
        disabled={disabled}
        value={text}
        data-testid="composer-input"
        {...slash.inputProps}
        onChange={(e) => {
          setText(e.currentTarget.value);
          typed();
        }}
        onPaste={(e) => {
          const pasted = Array.from(e.clipboardData.files);
          if (pasted.length) {
            e.preventDefault();
            files.add(pasted);
          }
        }}
        onKeyDown={(e) => {
          if (slash.onKeyDown(e)) return;
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      {/* The text takes the whole width (issue 36); the tools, the note switch and Send share the row below. */}
      <Group gap={4} wrap="nowrap" justify="space-between">
        <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
          <EmojiPicker onPick={insert} disabled={disabled} />
          {templatesOn && <TemplatesButton chatId={chatId} disabled={disabled} onInsert={insert} />}
          <KbButton disabled={disabled} onInsert={insert} />
          <FileButton onChange={(list) => files.add(list)} multiple disabled={disabled}>
            {(props) => (
              <Tooltip label={t('conversation.attach')}>
                <ActionIcon
                  {...props}
                  variant="subtle"
                  color="gray.7"
                  size="lg"
                  aria-label={t('conversation.attach')}
                  disabled={disabled || files.files.length >= ATTACHMENT_LIMITS.max}
                  data-testid="attach-button"
                >
                  <IconPaperclip size={20} aria-hidden />
                </ActionIcon>
              </Tooltip>
            )}
          </FileButton>
          <Switch
            label={t('chat.internal')}
            checked={internal}
            disabled={disabled}
            color="yellow.8"
            size="xs"
            ml="xs"
            data-testid="internal-toggle"
            onChange={(e) => setInternal(e.currentTarget.checked)}
          />
        </Group>
        <Tooltip label={t('chat.send')}>
          <ActionIcon
            size="lg"
            aria-label={t('chat.send')}
            disabled={!canSend}
            onClick={submit}
            data-testid="send-button"
          >
            <IconSend size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Stack>
  );
});

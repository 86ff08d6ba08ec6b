import { Group, Paper, Stack, Switch, Text, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { AUTO_REPLY_TEXT_MAX, type AutoReplyKind } from '@smartconnect/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../shared/i18n/index.ts';
import type { AutoRepliesValues } from './api.ts';

type Props = { kind: AutoReplyKind; form: UseFormReturnType<AutoRepliesValues>; children?: ReactNode };

/** One automatic reply: what it is, its switch, its text (required while on) and, for holding, the wait. */
export function ReplyCard({ kind, form, children }: Props) {
  const { t } = useTranslation();
  const value = form.values[kind];
  const titleId = `auto-reply-${kind}-title`;
  return (
    <Paper
      component="section"
      aria-labelledby={titleId}
      withBorder
      p="md"
      radius="md"
      data-testid={`auto-reply-${kind}`}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} id={titleId}>
              {t(`autoReplies.${kind}.title`)}
            </Text>
            <Text size="sm" c="dimmed">
              {t(`autoReplies.${kind}.hint`)}
            </Text>
          </Stack>
          <Switch
            aria-labelledby={titleId}
            checked={value.enabled}
            onChange={(e) => form.setFieldValue(`${kind}.enabled`, e.currentTarget.checked)}
            size="md"
          />
        </Group>
        <Textarea
          label={t('autoReplies.text')}
          description={t('autoReplies.counter', { count: value.text.length, max: AUTO_REPLY_TEXT_MAX })}
          placeholder={t(`autoReplies.${kind}.placeholder`)}
          required={value.enabled}
          autosize
          minRows={2}
          maxRows={8}
          maxLength={AUTO_REPLY_TEXT_MAX}
          {...form.getInputProps(`${kind}.text`)}
        />
        {children}
      </Stack>
    </Paper>
  );
}

import { Button, Group, Paper, Text, Textarea } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { placeholder, type TemplateVariable } from '@smartconnect/contracts';
import { IconPlus } from '@tabler/icons-react';
import { useId, useRef } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { TemplateText } from './template-text.tsx';

/**
 * A text with template variables (a quick-reply template's, a mailing's): the box, a chip per variable that inserts
 * its placeholder at the cursor, and a preview drawing the placeholders as chips. `inputProps`: the form's props of
 * the field (value, error, handlers); `testId`: the prefix of its test ids (`<testId>-text`, `<testId>-preview`).
 */
export function VariableTextField({
  label,
  hint,
  value,
  onChange,
  inputProps,
  variables,
  maxLength,
  maxRows,
  testId,
}: {
  label: string;
  hint: string;
  value: string;
  onChange: (text: string) => void;
  inputProps: GetInputPropsReturnType;
  variables: readonly TemplateVariable[];
  maxLength: number;
  maxRows: number;
  testId: string;
}) {
  const { t } = useTranslation();
  const area = useRef<HTMLTextAreaElement>(null);
  const groupLabel = useId();
  const insert = (v: TemplateVariable) => {
    const token = placeholder(v);
    const el = area.current;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    onChange(value.slice(0, start) + token + value.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  };
  return (
    <>
      <Textarea
        ref={area}
        label={label}
        withAsterisk
        autosize
        minRows={4}
        maxRows={maxRows}
        maxLength={maxLength}
        data-testid={`${testId}-text`}
        {...inputProps}
      />
      <div>
        <Text size="sm" fw={500} id={groupLabel}>
          {t('templates.variables')}
        </Text>
        <Text size="xs" c="gray.7" mb={6}>
          {hint}
        </Text>
        <Group gap={6} role="group" aria-labelledby={groupLabel}>
          {variables.map((v) => (
            <Button
              key={v}
              size="compact-sm"
              variant="light"
              radius="xl"
              leftSection={<IconPlus size={14} aria-hidden />}
              aria-label={t('templates.insertVariable', { name: t(`templates.variable.${v}`) })}
              onClick={() => insert(v)}
              data-testid={`insert-${v}`}
            >
              {t(`templates.variable.${v}`)}
            </Button>
          ))}
        </Group>
      </div>
      {value.trim() && (
        <Paper withBorder p="sm" bg="gray.0">
          <Text size="xs" c="gray.7" mb={4}>
            {t('templates.preview')}
          </Text>
          <Text
            size="sm"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            data-testid={`${testId}-preview`}
          >
            <TemplateText text={value} />
          </Text>
        </Paper>
      )}
    </>
  );
}

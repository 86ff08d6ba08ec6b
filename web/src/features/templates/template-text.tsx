import { Badge } from '@mantine/core';
import { type TemplateVariable, templateParts } from '@smartconnect/contracts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';

/** A template's text with its variables shown as chips (named in the interface language), never as HTML. */
export function TemplateText({ text }: { text: string }) {
  const { t } = useTranslation();
  // Keyed by each part's offset in the text: stable while the text does not change before it.
  let at = 0;
  const parts = templateParts(text).map((p) => {
    const key = at;
    at += 'variable' in p ? p.variable.length + 2 : p.text.length;
    return { key, p };
  });
  return (
    <>
      {parts.map(({ key, p }) =>
        'variable' in p ? (
          <VariableChip key={key} variable={p.variable} label={t(`templates.variable.${p.variable}`)} />
        ) : (
          <UserText key={key}>{p.text}</UserText>
        ),
      )}
    </>
  );
}

export function VariableChip({ variable, label }: { variable: TemplateVariable; label: string }) {
  return (
    <Badge
      component="span"
      size="sm"
      variant="light"
      color="brand"
      tt="none"
      radius="sm"
      mx={2}
      style={{ verticalAlign: 'baseline' }}
      data-variable={variable}
    >
      {label}
    </Badge>
  );
}

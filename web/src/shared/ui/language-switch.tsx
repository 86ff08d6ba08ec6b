import { SegmentedControl } from '@mantine/core';
import type { Language } from '@smartconnect/contracts';
import { useState } from 'react';
import { setLanguage, storedLanguage } from '../i18n/index.ts';

/** The eng/rus switch of the login page; remembers the choice in `sc-lang`. */
export function LanguageSwitch({ onChange }: { onChange?: (lang: Language) => void }) {
  const [value, setValue] = useState<Language>(storedLanguage());
  return (
    <SegmentedControl
      size="xs"
      radius="xl"
      data-testid="language-switch"
      value={value}
      onChange={(v) => {
        const lang = v as Language;
        setValue(lang);
        void setLanguage(lang);
        onChange?.(lang);
      }}
      data={[
        { value: 'eng', label: 'EN' },
        { value: 'rus', label: 'RU' },
      ]}
    />
  );
}

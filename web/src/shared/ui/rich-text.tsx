import { cloneElement, createElement, Fragment, type ReactElement, type ReactNode } from 'react';

/**
 * A translated text with named tags (`New here? <trial>Try it free</trial>`): each tag's content is drawn inside the
 * element given for its name, like react-i18next's Trans, whose parser (~4.5 KB) the public pages do without.
 * Tags do not nest; an unknown tag keeps its content as plain text.
 */
export function RichText({ text, components }: { text: string; components: Record<string, ReactElement> }) {
  const parts: ReactNode[] = [];
  const tag = /<(\w+)>(.*?)<\/\1>/gs;
  let at = 0;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    parts.push(text.slice(at, m.index));
    const element = components[m[1]];
    parts.push(
      element
        ? cloneElement(element as ReactElement<{ children?: ReactNode }>, { key: m.index }, m[2])
        : m[2],
    );
    at = m.index + m[0].length;
  }
  parts.push(text.slice(at));
  // No JSX here: the unit test imports this file under tsx.
  return createElement(Fragment, null, ...parts);
}

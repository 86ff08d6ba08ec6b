import type { OutboundMessage } from '../types.ts';

/**
 * Our buttons as a Cloud API interactive message
 * (https://developers.facebook.com/docs/whatsapp/cloud-api/messages/interactive-reply-buttons-messages,
 * .../interactive-list-messages): up to 3 postbacks as reply buttons (`interactive.type: button`, titles at most 20
 * characters), 4-10 as a list (`interactive.type: list`, row titles at most 24, the list's own button label at most 20).
 * The reply's id is our payload; it comes back as `interactive.button_reply.id` / `list_reply.id`. Links have no
 * place among reply buttons: they ride in the body as "label — url" lines. Body text is at most 1024 characters.
 */
export const WHATSAPP_INTERACTIVE = {
  bodyMax: 1024,
  replyButtonsMax: 3,
  replyTitleMax: 20,
  listRowsMax: 10,
  rowTitleMax: 24,
  listButtonMax: 20,
} as const;

const cut = (s: string, max: number) => {
  const chars = [...s.trim()];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
};

/** Titles unique as WhatsApp wants them: a repeated (or cut-alike) title gets a number. */
function unique(titles: string[], max: number): string[] {
  const seen = new Set<string>();
  return titles.map((t, i) => {
    let out = t;
    if (seen.has(out)) out = cut(`${i + 1}. ${t}`, max);
    seen.add(out);
    return out;
  });
}

/** The list's button label, in the message's language (Cyrillic text: Russian). */
const listLabel = (text: string) => (/[А-Яа-яЁё]/.test(text) ? 'Выбрать' : 'Choose');

/**
 * The text parts to send before the interactive message, and the interactive object itself (null when the message has
 * no postbacks: it goes as plain text with the links in it).
 */
export function interactiveOf(
  text: string,
  buttons: OutboundMessage['buttons'],
): { body: string; interactive: Record<string, unknown> | null } {
  const all = buttons.flat();
  const postbacks = all
    .flatMap((b) => ('payload' in b ? [b] : []))
    .slice(0, WHATSAPP_INTERACTIVE.listRowsMax);
  const links = all.flatMap((b) => ('url' in b ? [b] : []));
  const body = [text.trim(), links.map((l) => `${l.text} — ${l.url}`).join('\n')]
    .filter(Boolean)
    .join('\n\n');
  if (!postbacks.length) return { body, interactive: null };
  const shown = body || '…';
  if (postbacks.length <= WHATSAPP_INTERACTIVE.replyButtonsMax) {
    const titles = unique(
      postbacks.map((b) => cut(b.text, WHATSAPP_INTERACTIVE.replyTitleMax)),
      WHATSAPP_INTERACTIVE.replyTitleMax,
    );
    return {
      body: shown,
      interactive: {
        type: 'button',
        body: { text: shown },
        action: {
          buttons: postbacks.map((b, i) => ({ type: 'reply', reply: { id: b.payload, title: titles[i] } })),
        },
      },
    };
  }
  const titles = unique(
    postbacks.map((b) => cut(b.text, WHATSAPP_INTERACTIVE.rowTitleMax)),
    WHATSAPP_INTERACTIVE.rowTitleMax,
  );
  return {
    body: shown,
    interactive: {
      type: 'list',
      body: { text: shown },
      action: {
        button: listLabel(shown),
        sections: [{ rows: postbacks.map((b, i) => ({ id: b.payload, title: titles[i] })) }],
      },
    },
  };
}

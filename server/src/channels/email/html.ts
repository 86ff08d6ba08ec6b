import { convert } from 'html-to-text';

/**
 * An HTML-only mail as safe readable text: scripts, styles, heads and every image (tracking pixels among them)
 * are gone, links are kept as their text with the address after it, tables and lists stay readable. The result
 * is text: the web app renders message text as text, never as HTML.
 */
export function htmlToText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'head', format: 'skip' },
      { selector: 'noscript', format: 'skip' },
      { selector: 'iframe', format: 'skip' },
      { selector: 'object', format: 'skip' },
      { selector: 'svg', format: 'skip' },
      {
        selector: 'a',
        options: {
          hideLinkHrefIfSameAsText: true,
          ignoreHref: false,
          noAnchorUrl: true,
          linkBrackets: ['<', '>'],
        },
      },
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'h2', options: { uppercase: false } },
      { selector: 'h3', options: { uppercase: false } },
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
      { selector: 'blockquote', format: 'blockquote', options: { trimEmptyLines: true } },
    ],
  })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

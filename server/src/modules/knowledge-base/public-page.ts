/**
 * The public page of an article: server-rendered HTML in which every text of the article is escaped, no script and
 * no inline handler (the app's Content-Security-Policy applies), the markdown subset (paragraphs, '- ' lists,
 * **bold**) turned into tags only after escaping.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** One escaped line with **bold** spans. */
const inline = (line: string) => escapeHtml(line).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

/** The body's blocks: runs of '- ' / '* ' lines are lists, other runs of lines are paragraphs with line breaks. */
export function renderBody(body: string): string {
  const out: string[] = [];
  for (const block of body.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (!lines.length) continue;
    if (lines.every((l) => /^\s*[-*]\s+/.test(l))) {
      out.push(`<ul>${lines.map((l) => `<li>${inline(l.replace(/^\s*[-*]\s+/, ''))}</li>`).join('')}</ul>`);
    } else if (lines.length === 1 && /^#{1,3}\s+/.test(lines[0])) {
      out.push(`<h2>${inline(lines[0].replace(/^#{1,3}\s+/, ''))}</h2>`);
    } else {
      out.push(`<p>${lines.map(inline).join('<br>')}</p>`);
    }
  }
  return out.join('\n');
}

const STYLE = `body{margin:0;font:16px/1.6 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1a1b1e;background:#f8f9fa}
main{max-width:760px;margin:0 auto;padding:32px 20px 64px;background:#fff;min-height:100vh;box-sizing:border-box}
h1{font-size:28px;line-height:1.25;margin:0 0 8px}h2{font-size:20px;margin:24px 0 8px}
.meta{color:#495057;font-size:14px;margin:0 0 24px}p,ul{margin:0 0 16px}
footer{margin-top:40px;color:#495057;font-size:13px}`;

export function articlePage(a: {
  title: string;
  body: string;
  categoryName: string;
  updatedAt: Date;
}): string {
  const lang = /[А-Яа-яЁё]/.test(a.title) ? 'ru' : 'en';
  const updated = a.updatedAt.toISOString().slice(0, 10);
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(a.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(a.title)}</h1>
<p class="meta">${escapeHtml(a.categoryName)} · <time datetime="${updated}">${updated}</time></p>
<article>
${renderBody(a.body)}
</article>
<footer>SmartConnect</footer>
</main>
</body>
</html>
`;
}

export function notFoundPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found</title><style>${STYLE}</style></head>
<body><main><h1>Not found</h1><p>This article does not exist or is not public.</p></main></body></html>
`;
}

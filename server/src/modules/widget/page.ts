import { CHAT_PAGE_SLUG } from '@smartconnect/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { findChatPage } from './queries.ts';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The page's own words, in the organisation's language (the widget inside speaks the visitor's). */
const WORDS = {
  eng: {
    chat: 'Chat',
    missing: 'This chat page does not exist',
    missingText: 'Check the link you were given.',
  },
  rus: {
    chat: 'Чат',
    missing: 'Такой страницы чата нет',
    missingText: 'Проверьте ссылку, которую вам дали.',
  },
} as const;

/**
 * A light page, no app bundle: the site widget (/widget.js) rendered into the whole window (`data-inline`), so it
 * opens at once and works from 320 px up. Its images may come from anywhere (the channel's logo is a link).
 */
function page(lang: 'eng' | 'rus', title: string, body: string): string {
  const htmlLang = lang === 'rus' ? 'ru' : 'en';
  return `<!doctype html>
<html lang="${htmlLang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
html,body{margin:0;height:100%;background:#f1f3f5;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1a1b1e}
main{box-sizing:border-box;max-width:760px;height:100%;margin:0 auto;padding:12px;display:flex;flex-direction:column}
#chat{flex:1;min-height:0}
.missing{margin:auto;text-align:center;padding:24px}
@media (max-width:480px){main{padding:0}}
</style>
</head>
<body>
<main>${body}</main>
</body>
</html>`;
}

/**
 * `GET /c/{slug}`: a `chat_page` channel's hosted chat (§3, issue 34). An unknown, deleted or malformed address is a
 * 404 page in the installation's words; an inactive channel or organisation still shows the page, where the widget
 * says the chat is not available.
 */
export function chatPageRoutes(fastify: FastifyInstance, app: AppContext): void {
  fastify.get<{ Params: { slug: string } }>('/c/:slug', async (req, reply) => {
    const slug = String(req.params.slug ?? '').toLowerCase();
    const found = CHAT_PAGE_SLUG.test(slug) ? await findChatPage(app.db, slug) : null;
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header(
        'content-security-policy',
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; " +
          "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
      );
    if (!found) {
      const w = WORDS.eng;
      return reply
        .status(404)
        .send(
          page('eng', w.missing, `<div class="missing"><h1>${w.missing}</h1><p>${w.missingText}</p></div>`),
        );
    }
    const lang = found.org_language === 'rus' ? 'rus' : 'eng';
    const title = String(found.settings.title ?? '').trim() || WORDS[lang].chat;
    return reply.send(
      page(
        lang,
        title,
        `<h1 style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">${escapeHtml(title)}</h1>` +
          `<div id="chat"></div><script src="/widget.js" data-channel="${found.id}" data-inline="#chat" async></script>`,
      ),
    );
  });
}

import type { AdapterChannel, AdapterContext, ProviderTemplate } from '../types.ts';
import { callGraph } from './cloud-api.ts';

type Component = {
  type: string;
  format?: string;
  text?: string;
  buttons?: { type: string; text?: string; url?: string; phone_number?: string }[];
};
type Template = {
  id: string;
  name: string;
  language: string;
  status: string;
  category?: string;
  components?: Component[];
};

/** Meta's language codes we list (§3: Russian or English). */
const LANGUAGES: Record<string, 'rus' | 'eng'> = { ru: 'rus', en: 'eng', en_US: 'eng', en_GB: 'eng' };
/** At most this many pages of 100 are read (a WABA has at most 6000 templates, Meta's own limit). */
const MAX_PAGES = 60;

/** One of Meta's templates in our words; null for one we do not list (not approved, another language). */
function present(t: Template): ProviderTemplate | null {
  const language = LANGUAGES[t.language];
  if (t.status !== 'APPROVED' || !language) return null;
  const part = (type: string) => t.components?.find((c) => c.type === type);
  const header = part('HEADER');
  return {
    id: t.id,
    name: t.name,
    languageCode: t.language,
    type: t.category ?? 'UTILITY',
    registeredAt: null,
    header: header
      ? header.format && header.format !== 'TEXT'
        ? `[${header.format}]`
        : (header.text ?? null)
      : null,
    text: part('BODY')?.text ?? '',
    footer: part('FOOTER')?.text ?? null,
    buttons: (part('BUTTONS')?.buttons ?? []).map((b) => ({
      type: b.type,
      action: b.text ?? '',
      link: b.url ?? b.phone_number ?? null,
    })),
    language,
  };
}

/**
 * The WABA's approved templates in Russian or English: GET /{waba-id}/message_templates, following the cursor
 * pages (https://developers.facebook.com/docs/graph-api/reference/whats-app-business-account/message_templates).
 * Throws when the provider cannot be read.
 */
export async function listWhatsAppTemplates(
  ctx: AdapterContext,
  channel: AdapterChannel,
): Promise<ProviderTemplate[]> {
  const out: ProviderTemplate[] = [];
  const fields = 'id,name,language,status,category,components';
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await callGraph<{
      data?: Template[];
      paging?: { cursors?: { after?: string }; next?: string };
    }>(
      ctx,
      channel.secrets.accessToken ?? '',
      'GET',
      `/${channel.settings.wabaId}/message_templates?fields=${fields}&limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`,
    );
    if (!res.ok) throw new Error(`message_templates: ${res.code} ${res.message}`);
    for (const t of res.result.data ?? []) {
      const p = present(t);
      if (p) out.push(p);
    }
    after = res.result.paging?.cursors?.after;
    if (!res.result.paging?.next || !after) break;
  }
  return out;
}

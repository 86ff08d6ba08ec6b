import type { FormData } from 'undici';
import type { AdapterContext } from '../types.ts';

/** The VK API's address; tests point it at a fake (VK_API_BASE_URL). */
export const baseUrl = (ctx: AdapterContext) =>
  (ctx.env.VK_API_BASE_URL || 'https://api.vk.com').replace(/\/$/, '');

/** The API version every call names (and the Callback API server must be set to). */
export const VK_API_VERSION = '5.199';

/** VK's error codes we act on (https://dev.vk.com/ru/reference/errors). */
export const VK_ERROR = {
  authFailed: 5,
  tooManyPerSecond: 6,
  flood: 9,
  rateLimit: 29,
  accessDenied: 15,
  noPermission: 901,
} as const;

export type VkAnswer<T> =
  | { ok: true; result: T }
  | { ok: false; code: number; message: string; httpStatus: number };

/**
 * One API method (POST form-encoded with access_token and v; https://dev.vk.com/ru/api/api-requests): the answer
 * is `{response}` or `{error: {error_code, error_msg}}`, both with HTTP 200. Network failures throw.
 */
export async function callVk<T>(
  ctx: AdapterContext,
  token: string,
  method: string,
  params: Record<string, string | number | undefined> = {},
): Promise<VkAnswer<T>> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) form.set(k, String(v));
  form.set('access_token', token);
  form.set('v', VK_API_VERSION);
  const res = await ctx.outbound.fetch(`${baseUrl(ctx)}/method/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  return answerOf<T>(res.status, res.body);
}

/** An upload server's answer (a multipart POST to the URL VK gave); its errors are `{error}` strings. */
export async function uploadVk<T>(ctx: AdapterContext, url: string, form: FormData): Promise<VkAnswer<T>> {
  const res = await ctx.outbound.fetch(url, { method: 'POST', body: form });
  return answerOf<T>(res.status, res.body, true);
}

function answerOf<T>(status: number, raw: Buffer, upload = false): VkAnswer<T> {
  let json: { response?: T; error?: { error_code?: number; error_msg?: string } | string };
  try {
    json = JSON.parse(raw.toString('utf8')) as typeof json;
  } catch {
    return { ok: false, code: -1, message: `HTTP ${status}`, httpStatus: status };
  }
  if (status === 200 && json && !json.error) {
    if (upload) return { ok: true, result: json as T };
    if (json.response !== undefined) return { ok: true, result: json.response };
  }
  const e = json?.error;
  if (typeof e === 'string') return { ok: false, code: -1, message: e, httpStatus: status };
  return {
    ok: false,
    code: e?.error_code ?? -1,
    message: e?.error_msg ?? `HTTP ${status}`,
    httpStatus: status,
  };
}

/** A community as groups.getById describes it. */
export type VkGroup = { id: number; name?: string; screen_name?: string };

/**
 * One community by its id or short name (groups.getById, https://dev.vk.com/ru/method/groups.getById): its id, name
 * and short name, or null when the answer names none; with no id (''), a community token's own community. Network
 * failures throw.
 */
export async function vkGroupById(
  ctx: AdapterContext,
  token: string,
  groupId: string,
): Promise<VkAnswer<VkGroup | null>> {
  const got = await callVk<{ groups?: VkGroup[] } | VkGroup[]>(
    ctx,
    token,
    'groups.getById',
    groupId ? { group_id: groupId } : {},
  );
  if (!got.ok) return got;
  // Since 5.194 the answer is {groups, profiles}; before, the list itself.
  const groups = Array.isArray(got.result) ? got.result : (got.result.groups ?? []);
  return { ok: true, result: groups[0] ?? null };
}

/** The users' names (users.get, up to 1000 ids a call): "First Last" by id; deleted or banned pages are left out. */
export async function vkUserNames(
  ctx: AdapterContext,
  token: string,
  ids: string[],
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (let i = 0; i < ids.length; i += 1000) {
    const res = await callVk<{ id: number; first_name?: string; last_name?: string; deactivated?: string }[]>(
      ctx,
      token,
      'users.get',
      { user_ids: ids.slice(i, i + 1000).join(',') },
    );
    if (!res.ok) throw new Error(`users.get: ${res.code} ${res.message}`);
    for (const u of res.result) {
      const name = `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim();
      if (!u.deactivated && name) out[String(u.id)] = name;
    }
  }
  return out;
}

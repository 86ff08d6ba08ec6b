import type { OwnValues } from '../types.ts';

/**
 * The own part of the body: the token when typed; creating, the welcome message and photo when given; editing, each
 * one that changed, an emptied one as null (which removes it).
 */
export function viberBotBody(own: OwnValues, initialOwn?: OwnValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (own.token?.trim()) body.token = own.token;
  for (const f of ['welcomeMessage', 'photo']) {
    const v = own[f] ?? '';
    if (!initialOwn) {
      if (v.trim()) body[f] = v;
    } else if (v !== (initialOwn[f] ?? '')) body[f] = v.trim() ? v : null;
  }
  return body;
}

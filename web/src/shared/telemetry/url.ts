/** A URL without its query and fragment (they can carry tokens or what a user typed). */
export function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.split(/[?#]/, 1)[0] ?? '';
  }
}

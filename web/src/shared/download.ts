import { getToken } from './storage.ts';

/**
 * Downloads a file the server writes (a report's or a mailing's export) with the session's token, under the name its
 * Content-Disposition gives (else `fallback`). Throws when the server refuses.
 */
export async function downloadFile(path: string, fallback: string): Promise<void> {
  const res = await fetch(path, { headers: { authorization: `Bearer ${getToken() ?? ''}` } });
  if (!res.ok) throw new Error(`download ${res.status}`);
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallback;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

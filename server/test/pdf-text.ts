import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

// pdfjs-dist (test only) calls Promise.withResolvers, which Node 20 lacks (engines: >=20.19).
const P = Promise as unknown as { withResolvers?: () => unknown };
P.withResolvers ??= () => {
  let resolve: unknown;
  let reject: unknown;
  const promise = new Promise((a, b) => {
    resolve = a;
    reject = b;
  });
  return { promise, resolve, reject };
};

/** Fetches a signed-in PDF link and extracts its first page's text (no system fonts: the PDF must embed its own). */
export async function pdfText(
  url: string,
  token: string,
): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) return { status: res.status, type: res.headers.get('content-type'), text: '' };
  const parsed = await getDocument({ data: new Uint8Array(await res.arrayBuffer()), useSystemFonts: false })
    .promise;
  const content = await (await parsed.getPage(1)).getTextContent();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    text: content.items.map((i) => ('str' in i ? i.str : '')).join(' '),
  };
}

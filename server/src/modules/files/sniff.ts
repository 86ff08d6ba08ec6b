import { fileTypeFromBuffer } from 'file-type';

/**
 * How many first bytes tell a file's type: file-type's own sample is 4,100 bytes, but the zip-based office types are
 * told by the names of the entries that follow.
 */
export const SNIFF_BYTES = 64 * 1024;

/**
 * Types that name the same container, where the declared one is the more precise word (an m4a voice note is an mp4,
 * a .doc a compound file): a declared type of the content's family is kept as declared. Mere aliases (image/jpg,
 * audio/mp3) are not families: the content's standard name replaces them.
 */
const FAMILIES: readonly (readonly string[])[] = [
  [
    'video/mp4',
    'audio/mp4',
    'audio/x-m4a',
    'audio/m4a',
    'video/x-m4v',
    'video/quicktime',
    'video/3gpp',
    'audio/3gpp',
  ],
  ['audio/ogg', 'video/ogg', 'application/ogg', 'audio/opus'],
  ['video/webm', 'audio/webm', 'video/x-matroska', 'audio/x-matroska'],
  [
    'application/zip',
    'application/x-zip-compressed',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/vnd.oasis.opendocument.text',
    'application/vnd.oasis.opendocument.spreadsheet',
    'application/vnd.oasis.opendocument.presentation',
    'application/epub+zip',
  ],
  [
    'application/x-cfb',
    'application/msword',
    'application/vnd.ms-excel',
    'application/vnd.ms-powerpoint',
    'application/vnd.ms-outlook',
  ],
];

const base = (type: string) => type.split(';')[0]?.trim().toLowerCase() ?? '';
const familyOf = (type: string) => FAMILIES.find((f) => f.includes(type));

/**
 * Plain text: valid UTF-8 without control characters other than tab, line feed, carriage return and form feed.
 * `partial`: the bytes are the head of a longer file, so a character cut at the end is no fault.
 */
export function isPlainText(data: Uint8Array, partial = false): boolean {
  if (data.length === 0) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data, { stream: partial });
  } catch {
    return false;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
  return !/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/.test(text);
}

/**
 * The type to keep a received file under, from its first bytes (`head`, at most SNIFF_BYTES; `partial` when the file
 * is longer) and the type its sender declared: the content decides (docs/DECISIONS.md "Inbound files"). A declared
 * type the content bears out (or one of its family) is kept; content of another known type is kept as that type;
 * text as the declared text type or text/plain; anything else, whatever it claimed, as application/octet-stream,
 * which is only ever downloaded, never shown in place.
 */
export async function receivedType(head: Uint8Array, declared: string, partial: boolean): Promise<string> {
  const claimed = base(declared);
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  if (found) {
    const mime = base(found.mime);
    const family = familyOf(mime);
    return mime === claimed || family?.includes(claimed) ? declared : found.mime;
  }
  if (isPlainText(head, partial)) return claimed.startsWith('text/') ? declared : 'text/plain';
  return 'application/octet-stream';
}

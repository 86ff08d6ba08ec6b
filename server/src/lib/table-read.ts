import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import { SaxesParser } from 'saxes';
import { openZip, ZipReadError } from './table-zip.ts';

/**
 * Reading a table a user uploaded (an SMS service's export) into rows of strings, whatever the file is called:
 * a ZIP is an XLSX (its first sheet), anything else must be CSV text in UTF-8, UTF-16 with a BOM or, failing
 * those, Windows-1251 (what Russian services and Excel export). Mapping columns to meanings is the caller's job.
 * The input is untrusted: binary garbage, broken quoting, zip bombs, undefined XML entities and oversized
 * tables end as a TableReadError with a code the caller turns into a user's text, never as a library's error.
 */
export type TableRow = { line: number; cells: string[] };
export type TableFile = { format: 'csv' | 'xlsx'; encoding: string | null; rows: TableRow[] };

export type TableReadErrorCode = 'not_a_table' | 'encoding' | 'too_large' | 'too_many_rows' | 'broken';

export class TableReadError extends Error {
  override name = 'TableReadError';
  constructor(
    readonly code: TableReadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const TABLE_READ_LIMITS = {
  /** Rows after the header. */
  maxRows: 200_000,
  /** Cells past this many in a row are dropped silently (an export's extra columns are not the caller's). */
  maxColumns: 100,
  /** Longer cells are cut to maxCellChars + 1 characters: the caller still sees the cell was too long. */
  maxCellChars: 10_000,
  /** The most bytes inflated from an XLSX, all parts read together. */
  maxUnzippedBytes: 200 * 1024 * 1024,
};

type Limits = typeof TABLE_READ_LIMITS;

export function readTable(data: Buffer, limits: Partial<Limits> = {}): TableFile {
  const l: Limits = { ...TABLE_READ_LIMITS, ...limits };
  if (data.length === 0) throw new TableReadError('not_a_table', 'The file is empty.');
  const file = data.length >= 4 && data.readUInt32LE(0) === 0x04034b50 ? readXlsx(data, l) : readCsv(data, l);
  if (file.rows.length === 0) throw new TableReadError('not_a_table', 'The file has no rows.');
  return file;
}

/** Collects rows, keeping the limits; empty rows are left out. */
function rowSink(l: Limits) {
  const rows: TableRow[] = [];
  return {
    rows,
    add(line: number, cells: string[]) {
      let empty = true;
      const kept = cells.length > l.maxColumns ? cells.slice(0, l.maxColumns) : cells;
      for (let i = 0; i < kept.length; i++) {
        if (kept[i].length > l.maxCellChars + 1) kept[i] = kept[i].slice(0, l.maxCellChars + 1);
        if (empty && kept[i].trim() !== '') empty = false;
      }
      if (empty) return;
      // rows[0] is the header.
      if (rows.length > l.maxRows) {
        throw new TableReadError('too_many_rows', `The table has more than ${l.maxRows} rows.`);
      }
      rows.push({ line, cells: kept });
    },
  };
}

// ---------------------------------------------------------------------------------------------------- CSV

function decodeText(data: Buffer): { text: string; encoding: string } {
  // TextDecoder drops the BOM it recognises.
  const utf16 =
    data[0] === 0xff && data[1] === 0xfe
      ? 'utf-16le'
      : data[0] === 0xfe && data[1] === 0xff
        ? 'utf-16be'
        : null;
  if (utf16) {
    try {
      return { text: new TextDecoder(utf16, { fatal: true }).decode(data), encoding: utf16 };
    } catch {
      throw new TableReadError('encoding', 'The file starts as UTF-16 text but is not valid UTF-16.');
    }
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(data), encoding: 'utf-8' };
  } catch {
    // Every byte means something in Windows-1251, so this never fails; garbage is caught by looksBinary.
    return { text: new TextDecoder('windows-1251').decode(data), encoding: 'windows-1251' };
  }
}

/** A NUL, or more than 1% control characters besides tab and line ends: not text a spreadsheet wrote. */
function looksBinary(text: string): boolean {
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return true;
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) control++;
  }
  return control > text.length / 100;
}

/**
 * The delimiter seen most often outside quotes in the first non-blank line; ties and a single column go to
 * the semicolon, what Excel writes in a Russian locale.
 */
export function detectDelimiter(text: string): ';' | ',' | '\t' {
  const counts = { ';': 0, ',': 0, '\t': 0 };
  let quoted = false;
  let blank = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      quoted = !quoted;
      blank = false;
    } else if (quoted) {
      // Delimiters and line ends inside quotes are content.
    } else if (ch === '\n' || ch === '\r') {
      if (!blank) break;
      counts['\t'] = 0;
    } else if (ch === ';' || ch === ',' || ch === '\t') {
      counts[ch]++;
      if (ch !== '\t') blank = false;
    } else if (ch !== ' ') {
      blank = false;
    }
  }
  if (counts['\t'] > counts[';'] && counts['\t'] >= counts[',']) return '\t';
  return counts[','] > counts[';'] ? ',' : ';';
}

/** Line breaks inside a record's cells: only quoted cells hold them, and each moves the next record down. */
function breaksIn(cells: string[]): number {
  let n = 0;
  for (const cell of cells) {
    if (cell.indexOf('\n') < 0 && cell.indexOf('\r') < 0) continue;
    n += cell.match(/\r\n|\r|\n/g)?.length ?? 0;
  }
  return n;
}

function readCsv(data: Buffer, l: Limits): TableFile {
  const { text, encoding } = decodeText(data);
  if (looksBinary(text)) throw new TableReadError('not_a_table', 'The file is neither CSV text nor XLSX.');
  const sink = rowSink(l);
  // The line the next record starts on. csv-parse's own info.lines counts a CRLF inside quotes twice, so the
  // line is counted here: every empty line is a record too (skip_empty_lines is off).
  let line = 1;
  try {
    parseCsv(text, {
      delimiter: detectDelimiter(text),
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      // A quote inside an unquoted cell (an SMS text saying "hi") is kept as written.
      relax_quotes: true,
      on_record: (cells: string[]) => {
        const start = line;
        line += 1 + breaksIn(cells);
        sink.add(start, cells);
        return null; // not collected by the library: the sink has it
      },
    });
  } catch (err) {
    if (err instanceof CsvError) {
      const message =
        err.code === 'CSV_QUOTE_NOT_CLOSED'
          ? `A quoted cell in the row at line ${line} is never closed.`
          : `The CSV text is malformed in the row at line ${line}.`;
      throw new TableReadError('broken', message);
    }
    throw err;
  }
  return { format: 'csv', encoding, rows: sink.rows };
}

// ---------------------------------------------------------------------------------------------------- XLSX

type XmlHandlers = {
  open?: (name: string, attrs: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
};

/** Streams the part through saxes in slices, so a large sheet is never one huge string; names lose their prefix. */
function parseXml(part: Buffer, h: XmlHandlers, what: string): void {
  const parser = new SaxesParser();
  const local = (name: string) => name.slice(name.indexOf(':') + 1);
  if (h.open) {
    const open = h.open;
    parser.on('opentag', (tag) => open(local(tag.name), tag.attributes));
  }
  if (h.close) {
    const close = h.close;
    parser.on('closetag', (tag) => close(local(tag.name)));
  }
  if (h.text) {
    parser.on('text', h.text);
    parser.on('cdata', h.text);
  }
  const decoder = new TextDecoder(part[0] === 0xff && part[1] === 0xfe ? 'utf-16le' : 'utf-8');
  const slice = 1 << 20;
  try {
    for (let at = 0; at < part.length; at += slice) {
      parser.write(decoder.decode(part.subarray(at, at + slice), { stream: true }));
    }
    parser.write(decoder.decode()).close();
  } catch (err) {
    if (err instanceof TableReadError) throw err;
    // saxes reports malformed XML, undefined entities (no DTD expansion, so no entity bombs) the same way.
    throw new TableReadError('broken', `The workbook's ${what} is not valid XML.`);
  }
}

/** "C7" -> 2 (0-based); -1 when there are no letters. */
function columnOf(ref: string): number {
  let col = 0;
  let i = 0;
  for (; i < ref.length && i < 7; i++) {
    const c = ref.charCodeAt(i) | 0x20; // lower case
    if (c < 97 || c > 122) break;
    col = col * 26 + (c - 96);
  }
  return i === 0 ? -1 : col - 1;
}

/** The first sheet's part, from workbook.xml's first <sheet r:id> and the workbook's relationships. */
function firstSheetPath(zip: ReturnType<typeof openZip>): string | null {
  if (!zip.has('xl/workbook.xml') || !zip.has('xl/_rels/workbook.xml.rels')) return null;
  const found = { id: '', target: '' };
  parseXml(
    zip.read('xl/workbook.xml'),
    {
      open(name, attrs) {
        if (name !== 'sheet' || found.id !== '') return;
        const key = Object.keys(attrs).find((k) => k.endsWith(':id'));
        found.id = (key && attrs[key]) || '-';
      },
    },
    'workbook',
  );
  parseXml(
    zip.read('xl/_rels/workbook.xml.rels'),
    {
      open(name, attrs) {
        if (name === 'Relationship' && found.target === '' && attrs.Id === found.id)
          found.target = attrs.Target ?? '';
      },
    },
    'relationships',
  );
  if (found.target === '') return null;
  // Targets are relative to xl/ unless they start with a slash.
  const parts: string[] = found.target.startsWith('/') ? [] : ['xl'];
  for (const p of found.target.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '' && p !== '.') parts.push(p);
  }
  const path = parts.join('/');
  return zip.has(path) ? path : null;
}

/** Collects text of <t> elements (not phonetic <rPh> runs) up to a cap; rich-text runs join up. */
function textCollector(cap: number) {
  let depth = 0;
  let phonetic = 0;
  let text = '';
  return {
    get text() {
      return text;
    },
    reset() {
      text = '';
    },
    open(name: string) {
      if (name === 'rPh') phonetic++;
      else if (name === 't' && phonetic === 0) depth++;
    },
    close(name: string) {
      if (name === 'rPh') phonetic--;
      else if (name === 't' && phonetic === 0 && depth > 0) depth--;
    },
    add(t: string) {
      if (depth > 0 && text.length < cap) text += t.length > cap ? t.slice(0, cap) : t;
    },
  };
}

function sharedStrings(part: Buffer, cap: number): string[] {
  const strings: string[] = [];
  const t = textCollector(cap);
  parseXml(
    part,
    {
      open(name) {
        if (name === 'si') t.reset();
        t.open(name);
      },
      close(name) {
        t.close(name);
        if (name === 'si') strings.push(t.text);
      },
      text: (s) => t.add(s),
    },
    'shared strings',
  );
  return strings;
}

function readXlsx(data: Buffer, l: Limits): TableFile {
  let zip: ReturnType<typeof openZip>;
  try {
    zip = openZip(data, l.maxUnzippedBytes);
    return { format: 'xlsx', encoding: null, rows: readWorkbook(zip, l) };
  } catch (err) {
    if (err instanceof ZipReadError) throw new TableReadError(err.code, err.message);
    throw err;
  }
}

function readWorkbook(zip: ReturnType<typeof openZip>, l: Limits): TableRow[] {
  const sheetPath = firstSheetPath(zip) ?? 'xl/worksheets/sheet1.xml';
  if (!zip.has(sheetPath))
    throw new TableReadError('not_a_table', 'The ZIP archive is not an XLSX workbook.');
  const sstPath = 'xl/sharedStrings.xml';
  zip.checkDeclared(['xl/workbook.xml', 'xl/_rels/workbook.xml.rels', sstPath, sheetPath]);
  const cap = l.maxCellChars + 1;
  const shared = zip.has(sstPath) ? sharedStrings(zip.read(sstPath), cap) : [];

  const sink = rowSink(l);
  const inline = textCollector(cap);
  let rowNumber = 0;
  let cells: string[] | null = null;
  let col = -1;
  let type = 'n';
  let value = '';
  let inValue = false;
  parseXml(
    zip.read(sheetPath),
    {
      open(name, attrs) {
        if (name === 'row') {
          const r = Number.parseInt(attrs.r ?? '', 10);
          rowNumber = r > 0 ? r : rowNumber + 1;
          cells = [];
          col = -1;
        } else if (name === 'c') {
          const c = columnOf(attrs.r ?? '');
          col = c >= 0 ? c : col + 1;
          type = attrs.t ?? 'n';
          value = '';
          inline.reset();
        } else if (name === 'v') {
          inValue = true;
        } else {
          inline.open(name);
        }
      },
      close(name) {
        if (name === 'v') {
          inValue = false;
        } else if (name === 'c') {
          if (cells === null || col >= l.maxColumns) return;
          cells[col] = cellText(type, value, inline.text, shared);
        } else if (name === 'row') {
          if (cells === null) return;
          const row: string[] = Array.from(cells, (c) => c ?? '');
          cells = null;
          sink.add(rowNumber, row);
        } else {
          inline.close(name);
        }
      },
      text(s) {
        if (inValue) {
          if (value.length < cap) value += s;
        } else {
          inline.add(s);
        }
      },
    },
    'sheet',
  );
  return sink.rows;
}

function cellText(type: string, value: string, inline: string, shared: string[]): string {
  switch (type) {
    case 's': {
      if (value.trim() === '') return '';
      const s = shared[Number(value)];
      if (s === undefined) throw new TableReadError('broken', 'A cell refers to a missing shared string.');
      return s;
    }
    case 'inlineStr':
      return inline;
    case 'b':
      return value === ''
        ? ''
        : value.trim() === '1' || value.trim().toLowerCase() === 'true'
          ? 'TRUE'
          : 'FALSE';
    default:
      // Numbers (Excel dates are numbers too: the caller interprets them), 'str' formula results, 'e' errors.
      return value;
  }
}

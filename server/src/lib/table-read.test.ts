import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32, deflateRawSync } from 'node:zlib';
import { storedZip, tableXlsx } from './table-file.ts';
import { readTable, TableReadError, type TableReadErrorCode } from './table-read.ts';

const csv = (text: string) => readTable(Buffer.from(text, 'utf8'));
const cells = (file: ReturnType<typeof readTable>) => file.rows.map((r) => r.cells);
const lines = (file: ReturnType<typeof readTable>) => file.rows.map((r) => r.line);

function refuses(code: TableReadErrorCode, fn: () => unknown, message?: RegExp) {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof TableReadError, `not a TableReadError: ${err}`);
    assert.equal(err.code, code, err.message);
    if (message) assert.match(err.message, message);
    return true;
  });
}

/** A minimal workbook with shared strings around the given sheetData. */
function workbook(sheetData: string, sst: string | null, compress = false): Buffer {
  const main = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rels = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"';
  const parts: [string, string][] = [
    [
      'xl/workbook.xml',
      `<workbook ${main} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="SMS" sheetId="1" r:id="rId7"/><sheet name="Other" sheetId="2" r:id="rId8"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `<Relationships ${rels}><Relationship Id="rId8" Target="worksheets/sheet1.xml"/><Relationship Id="rId7" Target="/xl/worksheets/data.xml"/></Relationships>`,
    ],
    [
      'xl/worksheets/sheet1.xml',
      `<worksheet ${main}><sheetData><row r="1"><c><v>wrong sheet</v></c></row></sheetData></worksheet>`,
    ],
    ['xl/worksheets/data.xml', `<worksheet ${main}><sheetData>${sheetData}</sheetData></worksheet>`],
  ];
  if (sst !== null) parts.push(['xl/sharedStrings.xml', `<sst ${main}>${sst}</sst>`]);
  const entries = parts.map(([name, text]): [string, Buffer] => [name, Buffer.from(text, 'utf8')]);
  return compress ? deflatedZip(entries) : storedZip(entries);
}

/** storedZip's archive with each entry deflated instead (method 8), sizes as declared or overridden. */
function deflatedZip(entries: [string, Buffer][], declaredSize?: number): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const packed = deflateRawSync(data);
    const nameBuf = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(declaredSize ?? data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    parts.push(local, nameBuf, packed);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(crc32(data), 16);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(declaredSize ?? data.length, 24);
    dir.writeUInt16LE(nameBuf.length, 28);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, nameBuf);
    offset += local.length + nameBuf.length + packed.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(
    central.reduce((a, b) => a + b.length, 0),
    12,
  );
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

test('UTF-8 with a BOM, comma-separated, CRLF', () => {
  const file = readTable(Buffer.from('\uFEFFphone,text\r\n+79001234567,Привет\r\n', 'utf8'));
  assert.equal(file.format, 'csv');
  assert.equal(file.encoding, 'utf-8');
  assert.deepEqual(cells(file), [
    ['phone', 'text'],
    ['+79001234567', 'Привет'],
  ]);
  assert.deepEqual(lines(file), [1, 2]);
});

test('Windows-1251 with Cyrillic, semicolon-separated (a Russian Excel export)', () => {
  // "Текст;Номер\r\nПривет;1\r\n" in cp1251.
  const bytes = Buffer.concat([
    Buffer.from([0xd2, 0xe5, 0xea, 0xf1, 0xf2]),
    Buffer.from(';'),
    Buffer.from([0xcd, 0xee, 0xec, 0xe5, 0xf0]),
    Buffer.from('\r\n'),
    Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]),
    Buffer.from(';1\r\n'),
  ]);
  const file = readTable(bytes);
  assert.equal(file.encoding, 'windows-1251');
  assert.deepEqual(cells(file), [
    ['Текст', 'Номер'],
    ['Привет', '1'],
  ]);
});

test('UTF-16 LE with a BOM', () => {
  const file = readTable(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\tб\n1\t2\n', 'utf16le')]));
  assert.equal(file.encoding, 'utf-16le');
  assert.deepEqual(cells(file), [
    ['a', 'б'],
    ['1', '2'],
  ]);
});

test('delimiters: semicolon beats commas inside the header cells, tab, commas outside quotes only', () => {
  assert.deepEqual(cells(csv('"a,b";c\n1,5;2\n')), [
    ['a,b', 'c'],
    ['1,5', '2'],
  ]);
  assert.deepEqual(cells(csv('\n\nphone\ttext\n1\thello, world; ok\n')), [
    ['phone', 'text'],
    ['1', 'hello, world; ok'],
  ]);
  assert.deepEqual(cells(csv('"x;y",z\n1,2\n')), [
    ['x;y', 'z'],
    ['1', '2'],
  ]);
});

test('quoted newlines, doubled quotes, empty rows and line numbers of the rows after; LF, CRLF and CR', () => {
  for (const nl of ['\n', '\r\n', '\r']) {
    const text = [
      'id;text',
      '1;"one',
      'two',
      'three"',
      ';',
      '2;"say ""hi"""',
      '',
      '3;plain "quote"',
      '4',
    ].join(nl);
    const file = csv(text);
    assert.deepEqual(
      cells(file),
      [['id', 'text'], ['1', `one${nl}two${nl}three`], ['2', 'say "hi"'], ['3', 'plain "quote"'], ['4']],
      JSON.stringify(nl),
    );
    assert.deepEqual(lines(file), [1, 2, 6, 8, 9], JSON.stringify(nl));
  }
});

test('an unclosed quote is broken, with the line of its row', () => {
  refuses('broken', () => csv('a;b\n1;2\n3;"never closed\nmore\n'), /line 3/);
});

test('binary garbage, empty and blank files are not tables', () => {
  refuses('not_a_table', () => readTable(Buffer.from([0x50, 0x4b, 0x00, 0x01, 0x02, 0xff, 0x00])));
  // No NUL, but control characters everywhere.
  const noisy = Buffer.alloc(1000);
  for (let i = 0; i < noisy.length; i++) noisy[i] = i % 10 === 0 ? 0x01 : 0x41;
  refuses('not_a_table', () => readTable(noisy));
  refuses('not_a_table', () => readTable(Buffer.alloc(0)));
  refuses('not_a_table', () => csv('\uFEFF\r\n ; \r\n\r\n'));
  // The ZIP of something that is not a workbook.
  refuses('not_a_table', () => readTable(storedZip([['word/document.xml', Buffer.from('<w/>')]])));
});

test('cells too long are cut to one past the limit; extra columns are dropped; too many rows', () => {
  const file = readTable(Buffer.from(`a;b;c;d\n${'x'.repeat(50)};2;3;4\n`), {
    maxCellChars: 10,
    maxColumns: 3,
  });
  assert.deepEqual(cells(file), [
    ['a', 'b', 'c'],
    ['x'.repeat(11), '2', '3'],
  ]);
  const rows = (n: number) => `h\n${Array.from({ length: n }, (_, i) => `${i}\n`).join('')}`;
  assert.equal(readTable(Buffer.from(rows(5)), { maxRows: 5 }).rows.length, 6);
  refuses('too_many_rows', () => readTable(Buffer.from(rows(6)), { maxRows: 5 }));
  refuses('too_many_rows', () => readTable(tableXlsx(['h'], [['1'], ['2'], ['3']], 'S'), { maxRows: 2 }));
});

test('an XLSX written by tableXlsx reads back: strings, numbers, line = sheet row', () => {
  const file = readTable(
    tableXlsx(
      ['phone', 'text', 'time'],
      [
        ['+79001234567', 'Привет <&> "мир"\nвторая', 46353.4375],
        ['', '', ''],
        ['+79007654321', '=1+1', 12],
      ],
      'SMS',
    ),
  );
  assert.equal(file.format, 'xlsx');
  assert.equal(file.encoding, null);
  assert.deepEqual(cells(file), [
    ['phone', 'text', 'time'],
    ['+79001234567', 'Привет <&> "мир"\nвторая', '46353.4375'],
    ['+79007654321', '=1+1', '12'],
  ]);
  assert.deepEqual(lines(file), [1, 2, 4]);
});

test('XLSX: the first sheet via its relationship, shared and rich strings, skipped columns, cell types', () => {
  const sst =
    '<si><t>phone</t></si><si><r><t>Hel</t></r><r><rPr><b/></rPr><t xml:space="preserve">lo </t></r><r><t>&amp; bye</t></r></si>' +
    '<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></si>';
  const sheet =
    '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="C2" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c></row>' +
    '<row r="3" spans="1:5"><c r="A3" s="1"><v>46353.4375</v></c><c r="B3" t="s"><v>1</v></c><c r="D3" t="b"><v>1</v></c>' +
    '<c r="E3" t="str"><f>A1&amp;"x"</f><v>formula text</v></c></row>' +
    '<row r="7"><c r="B7" t="s"><v>2</v></c><c r="C7" t="e"><v>#DIV/0!</v></c><c r="D7" t="b"><v>0</v></c></row>' +
    '<row r="8"><c r="A8" s="3"/></row>';
  for (const compress of [false, true]) {
    const file = readTable(workbook(sheet, sst, compress));
    assert.deepEqual(cells(file), [
      ['phone', '', 'inline'],
      ['46353.4375', 'Hello & bye', '', 'TRUE', 'formula text'],
      ['', '東京', '#DIV/0!', 'FALSE'],
    ]);
    assert.deepEqual(lines(file), [2, 3, 7]);
  }
  refuses('broken', () => readTable(workbook('<row r="1"><c r="A1" t="s"><v>9</v></c></row>', sst)));
  refuses('broken', () => readTable(workbook('<row r="1"><c r="A1"><v>&lol;</v></c></row>', null)));
});

test('a zip bomb is refused quickly, whatever its header declares', () => {
  const zeros = Buffer.alloc(5 * 1024 * 1024);
  const sheet = (declared?: number) => deflatedZip([['xl/worksheets/sheet1.xml', zeros]], declared);
  const started = Date.now();
  refuses('too_large', () => readTable(sheet(), { maxUnzippedBytes: 1024 * 1024 }));
  // A header declaring a small size does not help: inflating stops at the budget.
  refuses('too_large', () => readTable(sheet(100), { maxUnzippedBytes: 1024 * 1024 }), /more data/);
  // The ratio alone: 5 MB of zeros is ~1000x, over 200x, but not over 10 MB, so it would pass; 11 MB does not.
  const big = deflatedZip([['xl/worksheets/sheet1.xml', Buffer.alloc(11 * 1024 * 1024)]]);
  refuses('too_large', () => readTable(big));
  assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
});

test('a truncated or damaged zip is broken', () => {
  const xlsx = tableXlsx(['a'], [['1']], 'S');
  refuses('broken', () => readTable(xlsx.subarray(0, xlsx.length - 30)));
  refuses('broken', () => readTable(xlsx.subarray(0, 200)));
  const sheet = Buffer.from(
    `<worksheet><sheetData>${'<row><c><v>1</v></c></row>'.repeat(50)}</sheetData></worksheet>`,
  );
  const zip = deflatedZip([['xl/worksheets/sheet1.xml', sheet]]);
  assert.equal(readTable(zip).rows.length, 50);
  // A flipped byte in the deflated data (after the 30-byte local header and the 24-byte name).
  const damaged = Buffer.from(zip);
  damaged[60] ^= 0xff;
  refuses('broken', () => readTable(damaged), /damaged/);
  refuses('broken', () => readTable(tableXlsx(['a'], [], 'S').subarray(0, 100)), /end record/);
});

test('100,000 CSV rows read fast', () => {
  const body = Array.from(
    { length: 100_000 },
    (_, i) =>
      `+7900${String(i).padStart(7, '0')};"Текст сообщения номер ${i}; с ""кавычками""";2025-01-01 12:00;delivered;${i}`,
  ).join('\r\n');
  const data = Buffer.from(`phone;text;time;status;id\r\n${body}\r\n`, 'utf8');
  const started = performance.now();
  const file = readTable(data);
  const ms = performance.now() - started;
  console.log(`100,000 CSV rows (${(data.length / 1e6).toFixed(1)} MB) in ${ms.toFixed(0)} ms`);
  assert.equal(file.rows.length, 100_001);
  assert.equal(file.rows[100_000].line, 100_001);
  assert.equal(file.rows[5].cells[1], 'Текст сообщения номер 4; с "кавычками"');
  assert.ok(ms < 5000);
});

/**
 * SMS-system import (issue 33), on PostgreSQL, the server in-process with its job runner as in production:
 * 1. an SMS.ru export of BENCH_ROWS (100,000) rows (semicolons, Windows-1251, a quoted newline every 100th text) to
 *    BENCH_PHONES (50,000) phones, a tenth of them already clients of another channel: uploaded, then the time until
 *    the import is done (target < 20 s), with the server's RSS before and after;
 * 2. the same file again: the time until done (target < 10 s) and the rows it added (must be 0);
 * Baseline in the same run: the same rows parsed (readTable) and inserted as bare rows into a scratch table with
 * one unnest INSERT per 2,000 rows (no contacts, clients, chats or dedupe): what reading and writing them costs at
 * least. The ratio is import time / baseline time.
 *
 * Env: DATABASE_URL (the server to make a fresh database on), BENCH_ROWS, BENCH_PHONES.
 */
import { performance } from 'node:perf_hooks';
import { readTable } from '../server/src/lib/table-read.ts';
import { startBenchServer } from './bench-server.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const PHONES = Number(process.env.BENCH_PHONES ?? 50_000);

const sleep = (n: number) => new Promise((r) => setTimeout(r, n));
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

/** Windows-1251 bytes (Cyrillic, ASCII). */
function cp1251(text: string): Buffer {
  const out = Buffer.alloc(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[n++] =
      c < 0x80
        ? c
        : c >= 0x410 && c <= 0x44f
          ? c - 0x410 + 0xc0
          : c === 0x401
            ? 0xa8
            : c === 0x451
              ? 0xb8
              : 0x3f;
  }
  return out.subarray(0, n);
}

const phone = (i: number) => `7916${String(1_000_000 + (i % PHONES)).slice(1)}`;

function exportFile(): Buffer {
  const lines = ['ID сообщения;Номер получателя;Текст сообщения;Дата отправки;Статус доставки;Стоимость'];
  const day = Date.UTC(2026, 10, 1);
  for (let i = 0; i < ROWS; i++) {
    const at = new Date(day + i * 20_000);
    const stamp = `${String(at.getUTCDate()).padStart(2, '0')}.${String(at.getUTCMonth() + 1).padStart(2, '0')}.${at.getUTCFullYear()} ${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}:${String(at.getUTCSeconds()).padStart(2, '0')}`;
    const text = i % 100 === 0 ? `"Ваш заказ №${i} готов.\nЖдём вас!"` : `Ваш заказ №${i} готов к выдаче`;
    lines.push(`2026-${i};${phone(i)};${text};${stamp};${i % 10 === 0 ? 'Не доставлено' : 'Доставлено'};3.5`);
  }
  return cp1251(`${lines.join('\r\n')}\r\n`);
}

async function main() {
  const bench = await startBenchServer();
  const { db, call } = bench;
  try {
    const team = await call('POST', '/api/teams', { name: 'Bench', description: 'bench' });
    const channel = await call('POST', '/api/channels', {
      type: 'sms',
      name: 'SMS.ru',
      teamId: team.id,
      service: 'smsru',
    });
    const api = await call('POST', '/api/channels', {
      type: 'api',
      name: 'Site',
      teamId: team.id,
      webhookUrl: 'http://127.0.0.1:9/unused',
    });
    // A tenth of the phones are clients of another channel already (found by phone, not made again).
    await db.query(
      `with c as (
         insert into clients (id, organisation_id, name)
         select uuid_generate_v7(), $1, 'Client ' || i from generate_series(0, $3::int - 1, 10) i returning id, name
       )
       insert into contacts (organisation_id, channel_id, client_id, external_id, name, phone)
       select $1, $2, c.id, 'ext-' || c.name, c.name, '+7916' || substr((1000000 + substr(c.name, 8)::int)::text, 2)
         from c`,
      [bench.orgId, api.id, PHONES],
    );
    await db.query('analyze');
    const file = exportFile();
    console.log(`export: ${ROWS} rows, ${mb(file.length)}, ${PHONES} phones`);

    const run = async (label: string) => {
      const form = new FormData();
      form.set('channelId', channel.id);
      form.set('file', new Blob([new Uint8Array(file)]), 'export.csv');
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      const t = performance.now();
      const created = await call('POST', '/api/sms-imports', form);
      const uploaded = (performance.now() - t) / 1000;
      let r: Record<string, unknown>;
      for (;;) {
        r = await call('GET', `/api/sms-imports/${created.id}`);
        if (r.status === 'done' || r.status === 'failed') break;
        await sleep(100);
      }
      const seconds = (performance.now() - t) / 1000;
      console.log(
        `${label}: ${seconds.toFixed(1)} s (upload answered in ${uploaded.toFixed(1)} s): ${r.status}, imported ${r.imported}, duplicates ${r.duplicates}, refused ${r.refused}; RSS ${mb(rssBefore)} -> ${mb(process.memoryUsage().rss)}`,
      );
      return { seconds, imported: r.imported as number };
    };
    const first = await run('import');
    const again = await run('re-import');

    // Baseline: parse, then bare rows inserted 2,000 at a time.
    await db.query('create table bench_sms (id text, phone text, text text, at text, status text)');
    const t = performance.now();
    const rows = readTable(file).rows.slice(1);
    for (let i = 0; i < rows.length; i += 2_000) {
      const chunk = rows.slice(i, i + 2_000);
      const col = (k: number) => chunk.map((r) => r.cells[k] ?? '');
      await db.query(
        'insert into bench_sms select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])',
        [col(0), col(1), col(2), col(3), col(4)],
      );
    }
    const base = (performance.now() - t) / 1000;
    console.log(`baseline (parse + bare inserts): ${base.toFixed(1)} s`);
    console.log(
      `import ${first.seconds.toFixed(1)} s (target < 20 s: ${first.seconds < 20 ? 'met' : 'NOT met'}; ratio to baseline ${(first.seconds / base).toFixed(1)}); re-import ${again.seconds.toFixed(1)} s (target < 10 s: ${again.seconds < 10 ? 'met' : 'NOT met'}; ratio ${(again.seconds / base).toFixed(1)}), rows added ${again.imported} (target 0: ${again.imported === 0 ? 'met' : 'NOT met'})`,
    );
  } finally {
    await bench.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

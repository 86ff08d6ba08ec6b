import type { SummaryReport } from '@smartconnect/contracts';
import { type Cell, tableCsv, tableXlsx } from '../../lib/table-file.ts';

/**
 * The summary report as a file: exactly the table the web shows (same columns, same order, durations as h:mm:ss),
 * as CSV or XLSX (lib/table-file.ts).
 */

export const SUMMARY_HEADERS = [
  'Type',
  'Name',
  'Online time',
  'Break time',
  'Dialogs',
  'Accepted messages',
  'Missed messages',
] as const;

/** Seconds as h:mm:ss (hours may exceed 24). */
export function hms(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

export function summaryTable(report: SummaryReport): Cell[][] {
  return report.rows.map((r) => [
    r.kind === 'channel' ? 'Channel' : 'Operator',
    r.name,
    r.onlineSeconds === null ? '' : hms(r.onlineSeconds),
    r.breakSeconds === null ? '' : hms(r.breakSeconds),
    r.dialogs,
    r.acceptedMessages,
    r.missedMessages,
  ]);
}

export const summaryCsv = (report: SummaryReport): string => tableCsv(SUMMARY_HEADERS, summaryTable(report));

export const summaryXlsx = (report: SummaryReport): Buffer =>
  tableXlsx(SUMMARY_HEADERS, summaryTable(report), 'Summary');

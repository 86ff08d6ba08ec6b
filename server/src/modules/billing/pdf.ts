import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { VAT_RATE } from '@smartconnect/contracts';
import PDFDocument from 'pdfkit';
import type { DocumentRow } from './queries.ts';

// DejaVu Sans ships with the npm install (dejavu-fonts-ttf) and covers Cyrillic: no system font is needed.
const fontDir = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const REGULAR = join(fontDir, 'DejaVuSans.ttf');
const BOLD = join(fontDir, 'DejaVuSans-Bold.ttf');

const TITLES: Record<DocumentRow['kind'], string> = {
  invoice: 'Счёт на оплату',
  act: 'Акт оказанных услуг',
  factura: 'Счёт-фактура',
};
const MONTHS = [
  'январь',
  'февраль',
  'март',
  'апрель',
  'май',
  'июнь',
  'июль',
  'август',
  'сентябрь',
  'октябрь',
  'ноябрь',
  'декабрь',
];
/** What the document is for: a month of the tariff (a monthly act) or a top-up of the account. */
const service = (doc: DocumentRow) =>
  doc.period
    ? `доступ к платформе SmartConnect по тарифу за ${MONTHS[Number(doc.period.slice(5, 7)) - 1]} ${doc.period.slice(0, 4)} г. (ежедневные списания)`
    : 'доступ к платформе SmartConnect по тарифу (пополнение лицевого счёта)';
const rub = (v: string | number) =>
  `${Number(v).toLocaleString('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} руб.`;

/** Renders a billing document (act, invoice, factura) as a PDF in Russian, the platform as the seller. */
export function renderDocument(doc: DocumentRow, buyer: { name: string; login: string }): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `${TITLES[doc.kind]} № ${doc.number}` },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const [d, m, y] = [
    doc.release_date.slice(8, 10),
    doc.release_date.slice(5, 7),
    doc.release_date.slice(0, 4),
  ];
  pdf.registerFont('regular', REGULAR);
  pdf.registerFont('bold', BOLD);
  pdf.font('bold').fontSize(18).text(`${TITLES[doc.kind]} № ${doc.number} от ${d}.${m}.${y}`);
  pdf.moveDown();
  pdf.font('regular').fontSize(11);
  pdf.text('Исполнитель: ООО «СмартКоннект»');
  pdf.text(`Заказчик: ${buyer.name} (логин организации: ${buyer.login})`);
  pdf.moveDown();
  pdf.text(`Услуга: ${service(doc)}`);
  pdf.moveDown();
  pdf.font('bold').text(`Сумма с НДС: ${rub(doc.sum)}`);
  pdf.font('regular').text(`в том числе НДС ${VAT_RATE}%: ${rub(doc.vat)}`);
  pdf.moveDown();
  pdf.text(`Статус: ${doc.paid ? 'оплачен' : 'не оплачен'}`);
  pdf.end();
  return done;
}

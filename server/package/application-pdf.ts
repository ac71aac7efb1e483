import 'server-only';
import type { CopyBlock, CopyGroup } from '@/lib/forms/answers-copy';
import { readableSize, readableTime, type PackageDocument } from './application-document';
import { ALERT, MUTED, PdfWriter } from './pdf-writer';

/**
 * The funder's PDF (DESIGN.md §10), rendered with pdfkit in this process: no browser is needed wherever
 * `npm start` runs. Every page has selectable text in reading order, fonts for every script are embedded
 * (subset), each section is an outline entry, and pages are numbered.
 */

const LABEL = { size: 9, weight: 'bold', color: MUTED } as const;
const VALUE = { size: 10.5, weight: 'regular' } as const;

function rows(pdf: PdfWriter, block: Pick<CopyBlock, 'rows'>, indent: number) {
  for (const row of block.rows) {
    pdf.ensure(40);
    pdf.text(row.label, { ...LABEL, indent });
    if (row.missing) pdf.text('Not answered (required)', { size: 10.5, weight: 'bold', color: ALERT, indent });
    else pdf.text(row.value, { ...VALUE, indent });
    pdf.gap(5);
  }
}

function group(pdf: PdfWriter, g: CopyGroup, indent: number) {
  for (const item of g.items) {
    pdf.ensure(50);
    pdf.gap(3);
    pdf.text(item.label, { size: 11, weight: 'bold', indent });
    rows(pdf, item, indent + 14);
    for (const child of item.groups) group(pdf, child, indent + 14);
  }
}

function cover(pdf: PdfWriter, doc: PackageDocument) {
  pdf.gap(40);
  pdf.text(doc.title, { size: 22, weight: 'bold' });
  pdf.gap(4);
  pdf.text(doc.businessName, { size: 16, weight: 'regular' });
  pdf.gap(24);
  for (const row of doc.cover) {
    pdf.text(row.label, LABEL);
    pdf.text(row.value, { size: 11.5, weight: 'regular' });
    pdf.gap(6);
  }
  pdf.gap(18);
  pdf.text(
    'This document shows the answers the Portal held at the revision above: every question the applicant could see, in the order of the form. Required questions left unanswered are marked. Each document is listed with its SHA-256 checksum, so the copy you receive can be checked against it.',
    { size: 9.5, weight: 'regular', color: MUTED },
  );
}

function documents(pdf: PdfWriter, doc: PackageDocument) {
  pdf.heading('Documents', 1);
  if (doc.documents.length === 0) pdf.text('No documents were attached to this application.', VALUE);
  for (const d of doc.documents) {
    pdf.ensure(90);
    pdf.text(d.filename, { size: 11, weight: 'bold' });
    pdf.text(`What it is: ${d.question}`, { size: 9.5, weight: 'regular', indent: 10 });
    pdf.text(`Type and size: ${d.contentType}, ${readableSize(d.size)}`, { size: 9.5, weight: 'regular', indent: 10 });
    pdf.text(`Uploaded: ${readableTime(d.uploadedAt)}`, { size: 9.5, weight: 'regular', indent: 10 });
    if (d.read.sha256 !== null) pdf.text(`SHA-256: ${d.read.sha256}`, { size: 8.5, weight: 'regular', indent: 10 });
    else pdf.text(`Not included: ${d.read.problem}`, { size: 9.5, weight: 'bold', color: ALERT, indent: 10 });
    pdf.gap(8);
  }
}

/** The PDF as a stream (pdfkit's document is a Readable); its pages are complete before the first byte leaves. */
export function renderApplicationPdf(doc: PackageDocument, generatedAt: Date): PDFKit.PDFDocument {
  const pdf = new PdfWriter({ title: `${doc.title} – ${doc.businessName}`, author: doc.businessName, lang: 'en' });
  cover(pdf, doc);
  for (const section of doc.sections) {
    pdf.newPage();
    pdf.heading(section.label, 1);
    rows(pdf, section, 0);
    for (const g of section.groups) {
      pdf.heading(g.label, 2);
      group(pdf, g, 0);
    }
  }
  pdf.newPage();
  documents(pdf, doc);
  pdf.footers(`${doc.businessName} – ${doc.title} – ${readableTime(generatedAt)}`);
  pdf.doc.end();
  return pdf.doc;
}

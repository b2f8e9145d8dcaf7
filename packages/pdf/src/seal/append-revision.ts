import { PDFDict, PDFDocument, PDFName, PDFRef, type PDFObject } from 'pdf-lib';
import { PdfError } from '../pdf-error.ts';

/** One object of a revision: a pdf-lib object, or its body written as is (a signature dictionary with placeholders). */
export type RevisionObject = { ref: PDFRef; object: PDFObject } | { ref: PDFRef; raw: string };

/**
 * A PDF opened to add an incremental update (ISO 32000-1 §7.5.6): the objects listed are
 * appended after the last byte with a classic xref section and a trailer whose /Prev points at
 * the previous one. Nothing before is rewritten, so every earlier signature stays valid.
 * pdf-lib is used to read the file and to serialise the new objects, never to save it.
 */
export type Revision = { doc: PDFDocument; catalog: PDFDict; rootRef: PDFRef };

export async function openRevision(pdf: Uint8Array): Promise<Revision> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { updateMetadata: false });
  } catch (err) {
    throw new PdfError('SEAL_FAILED', 'The sealed PDF could not be read to add a revision.', { cause: err });
  }
  const rootRef = doc.context.trailerInfo.Root;
  if (!(rootRef instanceof PDFRef)) throw new PdfError('SEAL_FAILED', 'The sealed PDF has no catalog reference.');
  return { doc, catalog: doc.context.lookup(rootRef, PDFDict), rootRef };
}

/** Where the previous xref section starts: the number after the last `startxref`. */
function previousStartXref(pdf: Uint8Array): number {
  const tail = Buffer.from(pdf.subarray(Math.max(0, pdf.byteLength - 2048))).toString('latin1');
  const m = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!m) throw new PdfError('SEAL_FAILED', 'The sealed PDF has no startxref.');
  return Number(m[1]);
}

function serialise(object: PDFObject): Buffer {
  const bytes = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(bytes, 0);
  return Buffer.from(bytes);
}

/** Appends the revision; returns the whole new file. */
export function appendRevision(pdf: Uint8Array, revision: Revision, objects: readonly RevisionObject[]): Uint8Array {
  const { doc, rootRef } = revision;
  const chunks: Buffer[] = [Buffer.from(pdf)];
  let offset = pdf.byteLength;
  const push = (b: Buffer) => {
    chunks.push(b);
    offset += b.length;
  };
  if (pdf[pdf.byteLength - 1] !== 0x0a) push(Buffer.from('\n'));
  const entries: { num: number; gen: number; at: number }[] = [];
  for (const item of objects) {
    entries.push({ num: item.ref.objectNumber, gen: item.ref.generationNumber, at: offset });
    push(Buffer.from(`${item.ref.objectNumber} ${item.ref.generationNumber} obj\n`, 'latin1'));
    push('raw' in item ? Buffer.from(item.raw, 'latin1') : serialise(item.object));
    push(Buffer.from('\nendobj\n', 'latin1'));
  }
  const xrefAt = offset;
  // One subsection per object: always valid, whatever the numbers (§7.5.4).
  let xref = 'xref\n';
  for (const e of [...entries].sort((a, b) => a.num - b.num)) xref += `${e.num} 1\n${String(e.at).padStart(10, '0')} ${String(e.gen).padStart(5, '0')} n\r\n`;
  const trailer = doc.context.trailerInfo;
  const parts = [`/Size ${doc.context.largestObjectNumber + 1}`, `/Root ${rootRef.toString()}`, `/Prev ${previousStartXref(pdf)}`];
  if (trailer.Info) parts.push(`/Info ${trailer.Info.toString()}`);
  if (trailer.ID) parts.push(`/ID ${trailer.ID.toString()}`);
  push(Buffer.from(`${xref}trailer\n<< ${parts.join(' ')} >>\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(chunks));
}

export const pdfName = (name: string): PDFName => PDFName.of(name);

import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

/** A Letter PDF of `pages` pages with a heading on each (the tabs sit on blank areas). */
export async function samplePdf(pages: number, title = 'Service agreement'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`${title} - page ${i}`, { x: 72, y: 720, size: 18, font, color: rgb(0, 0, 0) });
    page.drawText('Signature:', { x: 72, y: 262, size: 11, font });
  }
  return doc.save();
}

export const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';

/** One file of a portfolio: its name and PDF bytes. */
export type PortfolioFile = { readonly name: string; readonly bytes: Uint8Array };

/**
 * A PDF portfolio (ISO 32000-1 §12.3.5, "Collections"): a cover page and each file embedded
 * whole, byte for byte (so a sealed document keeps its seal), the catalog's /Collection telling
 * a viewer to list them. The cover's text is ASCII on purpose: the standard font cannot draw
 * every script a document name may be in, and the names are in the list the viewer shows.
 */
export async function buildPortfolio(files: readonly PortfolioFile[], options: { readonly title: string; readonly at: Date }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(options.title);
  doc.setCreationDate(options.at);
  doc.setModificationDate(options.at);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText(`PDF portfolio: ${files.length} file${files.length === 1 ? '' : 's'}`, { x: 72, y: 700, size: 18, font });
  page.drawText('Open the attached files with a PDF portfolio viewer.', { x: 72, y: 670, size: 12, font });
  for (const f of files) {
    await doc.attach(f.bytes, f.name, { mimeType: 'application/pdf', creationDate: options.at, modificationDate: options.at });
  }
  // View /D: the details view (a list of the files) rather than the cover.
  doc.catalog.set(PDFName.of('Collection'), doc.context.obj({ Type: 'Collection', View: 'D' }));
  // Without object streams: the catalog (and its /Collection) stays readable to every reader.
  return doc.save({ useObjectStreams: false });
}

import { PDFArray, PDFDict, PDFName, PDFRef, PDFString } from 'pdf-lib';
import { PdfError } from '../pdf-error.ts';
import { appendRevision, openRevision, type RevisionObject } from './append-revision.ts';
import { requestTimestamp, type TimestampAuthority } from './request-timestamp.ts';
import { signatureSlots, signedBytes, writeSlotContents } from './signature-slots.ts';

// A token with the TSA's chain is 3-6 KB; hex doubles it.
const TOKEN_ROOM = 16_384;
const RANGE_PLACEHOLDER = '/ByteRange [0 0000000000 0000000000 0000000000]';

/**
 * PAdES B-LT → B-LTA: one incremental update adding a document timestamp (ISO 32000-2 §12.8.5:
 * a signature field whose value has /Type /DocTimeStamp and /SubFilter /ETSI.RFC3161, its
 * /Contents an RFC 3161 token over the byte ranges), so the seal, its timestamp and the DSS
 * are all covered by a TSA's signature that can itself be renewed before it expires. The field
 * is invisible (zero rectangle, hidden + locked) on the first page.
 */
export async function addDocumentTimestamp(pdf: Uint8Array, tsa: TimestampAuthority): Promise<{ pdf: Uint8Array; genTime: Date }> {
  const revision = await openRevision(pdf);
  const { doc, catalog, rootRef } = revision;
  const ctx = doc.context;
  const objects: RevisionObject[] = [];
  const page = doc.getPages()[0];
  if (!page) throw new PdfError('SEAL_FAILED', 'The PDF has no page for the timestamp field.');
  const sigRef = ctx.nextRef();
  const count = signatureSlots(pdf).length;
  const widget = ctx.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', F: 132, Rect: [0, 0, 0, 0], V: sigRef, P: page.ref });
  widget.set(PDFName.of('T'), PDFString.of(`Signet document timestamp ${count}`));
  const widgetRef = ctx.register(widget);
  objects.push({ ref: widgetRef, object: widget });

  // The page's /Annots (inline, or an array object of its own) and the form's /Fields gain the field.
  const annots = page.node.get(PDFName.of('Annots'));
  if (annots instanceof PDFRef) {
    const array = ctx.lookup(annots, PDFArray);
    array.push(widgetRef);
    objects.push({ ref: annots, object: array });
  } else {
    const array = annots instanceof PDFArray ? annots : ctx.obj([]);
    array.push(widgetRef);
    page.node.set(PDFName.of('Annots'), array);
    objects.push({ ref: page.ref, object: page.node });
  }
  const formEntry = catalog.get(PDFName.of('AcroForm'));
  const form = formEntry instanceof PDFRef ? ctx.lookup(formEntry, PDFDict) : formEntry instanceof PDFDict ? formEntry : ctx.obj({});
  const fieldsEntry = form.get(PDFName.of('Fields'));
  if (fieldsEntry instanceof PDFRef) {
    const fields = ctx.lookup(fieldsEntry, PDFArray);
    fields.push(widgetRef);
    objects.push({ ref: fieldsEntry, object: fields });
  } else {
    const fields = fieldsEntry instanceof PDFArray ? fieldsEntry : ctx.obj([]);
    fields.push(widgetRef);
    form.set(PDFName.of('Fields'), fields);
  }
  form.set(PDFName.of('SigFlags'), ctx.obj(3));
  if (formEntry instanceof PDFRef) objects.push({ ref: formEntry, object: form });
  else catalog.set(PDFName.of('AcroForm'), form);
  if (!(formEntry instanceof PDFRef) && !objects.some((o) => o.ref === rootRef)) objects.push({ ref: rootRef, object: catalog });
  objects.push({ ref: sigRef, raw: `<< /Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161 ${RANGE_PLACEHOLDER} /Contents <${'0'.repeat(TOKEN_ROOM * 2)}> >>` });

  const withPlaceholder = Buffer.from(appendRevision(pdf, revision, objects));
  const rangeAt = withPlaceholder.indexOf(RANGE_PLACEHOLDER, pdf.byteLength, 'latin1');
  const contentsStart = withPlaceholder.indexOf('/Contents <', rangeAt, 'latin1') + '/Contents '.length;
  const contentsEnd = contentsStart + TOKEN_ROOM * 2 + 2;
  if (rangeAt < 0 || withPlaceholder[contentsEnd - 1] !== 0x3e) throw new PdfError('SEAL_FAILED', 'The timestamp placeholder was not written as expected.');
  const byteRange = [0, contentsStart, contentsEnd, withPlaceholder.length - contentsEnd] as const;
  const rangeText = `/ByteRange [${byteRange.join(' ')}]`;
  withPlaceholder.write(rangeText.replace(/\]$/, ' '.repeat(RANGE_PLACEHOLDER.length - rangeText.length) + ']'), rangeAt, 'latin1');
  const slot = { byteRange, contentsStart, contentsEnd };
  const token = await requestTimestamp(tsa, signedBytes(withPlaceholder, slot));
  return { pdf: writeSlotContents(withPlaceholder, slot, token.der), genTime: token.genTime };
}

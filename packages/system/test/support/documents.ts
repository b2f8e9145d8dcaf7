import { Document as DocxDocument, Packer, Paragraph, TextRun } from 'docx';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

/**
 * One document per format, each with its anchor in white text (invisible to readers, real text
 * to the anchor search): /sn1/ in the html and the docx for the first signer, /sn2/ in the pdf
 * for the second.
 */
export async function threeDocuments(): Promise<{ documentBase64: string; documentId: string; fileExtension: string; name: string }[]> {
  const html = '<!doctype html><html><body style="font-family:Arial"><h1>Purchase order</h1><p>Agreed by the buyer: <span style="color:#ffffff">/sn1/</span></p></body></html>';
  const docx = await Packer.toBuffer(new DocxDocument({
    sections: [{ children: [new Paragraph({ children: [new TextRun('Contract between the parties.')] }), new Paragraph({ children: [new TextRun('Signature: '), new TextRun({ text: '/sn1/', color: 'FFFFFF' })] })] }],
  }));
  const pdfDoc = await PDFDocument.create();
  const page = pdfDoc.addPage([612, 792]);
  const font = await pdfDoc.embedFont(StandardFonts.Helvetica);
  page.drawText('Terms and conditions', { x: 72, y: 700, size: 16, font });
  page.drawText('/sn2/', { x: 300, y: 200, size: 10, font, color: rgb(1, 1, 1) });
  const pdf = await pdfDoc.save();
  return [
    { documentBase64: b64(html), documentId: '1', fileExtension: 'html', name: 'Purchase order' },
    { documentBase64: b64(docx), documentId: '2', fileExtension: 'docx', name: 'Contract' },
    { documentBase64: b64(pdf), documentId: '3', fileExtension: 'pdf', name: 'Terms' },
  ];
}

/** Two signers in routing order 1 and 2 and a carbon copy in order 1, SignHere tabs by anchor. */
export function envelopeDefinition(documents: unknown[], subject = 'Please sign the purchase order') {
  return {
    emailSubject: subject,
    documents,
    recipients: {
      signers: [
        { email: 'first@example.com', name: 'First Signer', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ anchorString: '/sn1/', anchorUnits: 'pixels', anchorXOffset: '20', anchorYOffset: '10' }] } },
        { email: 'second@example.com', name: 'Second Signer', recipientId: '2', routingOrder: '2', tabs: { signHereTabs: [{ anchorString: '/sn2/', anchorUnits: 'pixels', anchorXOffset: '0', anchorYOffset: '0' }] } },
      ],
      carbonCopies: [{ email: 'copy@example.com', name: 'Casey Copy', recipientId: '3', routingOrder: '1' }],
    },
    status: 'sent',
  };
}

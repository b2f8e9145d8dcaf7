import { parentPort } from 'node:worker_threads';
import { extractText } from '../anchor/extract-text.ts';
import { validatePdf } from '../convert/validate-pdf.ts';
import { PdfError } from '../pdf-error.ts';
import { checkSignatureImage } from '../stamp/signature-image.ts';
import { readFormFields } from '../form/read-form-fields.ts';
import { removeFormFields } from '../form/remove-form-fields.ts';
import { attachmentToPdf } from '../convert/attachment-to-pdf.ts';
import { drawTabValues } from '../stamp/draw-tab-values.ts';
import { stampSignatures } from '../stamp/stamp-signatures.ts';
import { inspectSignatures } from '../seal/inspect-signatures.ts';
import { timestampSeal } from '../seal/timestamp-seal.ts';
import { addValidationData } from '../seal/add-validation-data.ts';
import { addDocumentTimestamp } from '../seal/add-document-timestamp.ts';
import type { ThreadReply, ThreadRequest, ThreadResults } from './thread-messages.ts';

// The worker side: pdf.js and pdf-lib parse here, so a large PDF never stalls the event loop
// that answers requests and health checks (a 50-page PDF blocked it ~200 ms in one piece), and
// image decoding (synchronous inflate of every pixel) happens here too, and so do the evidence
// levels' parse-and-append of whole sealed files (their network waits come along with them).
const port = parentPort;
if (!port) throw new Error('pdf-thread.ts must run in a worker thread');

async function run(req: ThreadRequest): Promise<ThreadResults[keyof ThreadResults]> {
  switch (req.op) {
    case 'validate':
      return validatePdf(req.pdf);
    case 'extractText':
      return extractText(req.pdfs);
    case 'checkSignatureImage':
      return checkSignatureImage(req.image);
    case 'stamp':
      return stampSignatures(req.pdf, req.stamps, req.signatureFont ? { signatureFont: req.signatureFont } : {});
    case 'drawTabValues':
      return drawTabValues(req.pdf, req.stamps);
    case 'readFormFields':
      return readFormFields(req.pdf);
    case 'removeFormFields':
      return removeFormFields(req.pdf, { flatten: req.flatten });
    case 'attachmentToPdf':
      return attachmentToPdf(req.bytes);
    case 'inspectSignatures':
      return inspectSignatures(req.pdf);
    case 'timestampSeal':
      return timestampSeal(req.pdf, req.tsa);
    case 'addValidationData':
      return addValidationData(req.pdf, req.timeoutMs !== undefined ? { timeoutMs: req.timeoutMs } : {});
    case 'addDocumentTimestamp':
      return addDocumentTimestamp(req.pdf, req.tsa);
  }
}

port.on('message', (req: ThreadRequest) => {
  void (async () => {
    let reply: ThreadReply;
    try {
      reply = { id: req.id, ok: true, result: await run(req) };
    } catch (err) {
      reply = err instanceof PdfError
        ? { id: req.id, ok: false, code: err.code, message: err.detail ?? '' }
        : { id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
  })();
});
port.postMessage({ ready: true });

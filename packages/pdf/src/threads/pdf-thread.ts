import { parentPort } from 'node:worker_threads';
import { extractText } from '../anchor/extract-text.ts';
import { validatePdf } from '../convert/validate-pdf.ts';
import { PdfError } from '../pdf-error.ts';
import type { ThreadReply, ThreadRequest } from './thread-messages.ts';

// The worker side: pdf.js and pdf-lib parse here, so a large PDF never stalls the event loop
// that answers requests and health checks (a 50-page PDF blocked it ~200 ms in one piece).
const port = parentPort;
if (!port) throw new Error('pdf-thread.ts must run in a worker thread');

port.on('message', (req: ThreadRequest) => {
  void (async () => {
    let reply: ThreadReply;
    try {
      const result = req.op === 'validate' ? await validatePdf(req.pdfs[0]!) : await extractText(req.pdfs);
      reply = { id: req.id, ok: true, result };
    } catch (err) {
      reply = err instanceof PdfError
        ? { id: req.id, ok: false, code: err.code, message: err.detail ?? '' }
        : { id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
  })();
});
port.postMessage({ ready: true });

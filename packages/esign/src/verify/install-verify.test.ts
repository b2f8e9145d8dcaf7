// Pins that /verify parses uploads on its pdf worker thread, not on the server's event loop
// (issue "esign IX": "parsed off the main thread"): the thread it is given must see every file
// it answers for, and a file the thread cannot check is refused, never read on the main thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { PdfThreads, type PdfInspection } from '@signet/pdf';
import { installVerify, type VerifyOptions } from './install-verify.ts';

/** A real pdf thread that records what it was asked to inspect. */
class RecordingThreads extends PdfThreads {
  readonly inspected: number[] = [];
  refuse = false;

  override async inspectSignatures(pdf: Uint8Array, signal?: AbortSignal): Promise<PdfInspection> {
    this.inspected.push(pdf.byteLength);
    if (this.refuse) throw new Error('the thread could not check it');
    return super.inspectSignatures(pdf, signal);
  }
}

const repositories: VerifyOptions['repositories'] = {
  evidence: { findBySha256: () => Promise.resolve(undefined) },
  envelopes: { find: () => Promise.resolve(undefined) },
  audit: { list: () => Promise.resolve([]) },
  accountSettings: { verifyPolicy: () => Promise.resolve({}) },
} as unknown as VerifyOptions['repositories'];

test('POST /verify checks the file on the pdf thread it was given; when the thread cannot, the answer is 422', async (t) => {
  const threads = new RecordingThreads(1);
  const app = Fastify();
  installVerify(app, { repositories, threads });
  t.after(() => app.close());
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  const pdf = Buffer.from(await doc.save());

  const answer = await app.inject({ method: 'POST', url: '/verify', headers: { 'content-type': 'application/pdf', accept: 'application/json' }, payload: pdf });
  assert.equal(answer.statusCode, 200, answer.body);
  const verdict = answer.json<{ status: string; sha256: string }>();
  assert.equal(verdict.status, 'unsigned');
  // The hash in the answer is the thread's: the file went there whole.
  assert.equal(verdict.sha256, createHash('sha256').update(pdf).digest('hex'));
  assert.deepEqual(threads.inspected, [pdf.byteLength]);

  threads.refuse = true;
  const refused = await app.inject({ method: 'POST', url: '/verify', headers: { 'content-type': 'application/pdf', accept: 'application/json' }, payload: pdf });
  assert.equal(refused.statusCode, 422);
  assert.equal(refused.json<{ errorCode: string }>().errorCode, 'UNREADABLE_PDF');
  assert.deepEqual(threads.inspected, [pdf.byteLength, pdf.byteLength]);
});

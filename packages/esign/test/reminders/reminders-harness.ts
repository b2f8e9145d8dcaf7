import type { TestContext } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { request } from 'undici';
import { extractText, readFormFields, removeFormFields, validatePdf } from '@signet/pdf';
import { tokenPerFakeInstant } from '../support/authorize.ts';
import { seedUserAndApp, startEsign } from '../support/esign-harness.ts';
import { FakeClock } from '../support/fake-clock.ts';
import type { TextSender } from '../../src/mail/text-sender.ts';

export const DAY_S = 86_400;

/**
 * esign with a real SMTP peer, a fake clock and fast polling. The clock starts 60 days in the
 * past and the tests only move it forward up to the real present: the outbox worker runs on
 * the real clock and sends a mail once its due time (the fake time it was written at) has
 * passed, so fake time must never run ahead of real time.
 */
export async function startReminderEsign(t: TestContext, smtpUrl: string, options: { reminderPollMs?: number; textSender?: TextSender } = {}) {
  const h = await startEsign(t, {
    settings: { SMTP_URL: smtpUrl },
    clock: new FakeClock(Date.now() - 60 * DAY_S * 1000),
    deps: {
      // PDFs pass through (no LibreOffice/Chromium): these tests are about time, not documents.
      converter: { convert: ({ bytes }) => validatePdf(bytes).then(() => bytes), extractText, readFormFields, removeFormFields },
      mailWorker: { pollIntervalMs: 50 },
      reminderPollMs: options.reminderPollMs ?? 50,
      ...(options.textSender ? { textSender: options.textSender } : {}),
    },
  });
  const { origin, clock } = h;
  const seed = await seedUserAndApp(h);
  /** An access token fresh for the current fake time: tokens live 8 hours of (fake) time, and the tests skip days. */
  const token = tokenPerFakeInstant(h, seed);
  const base = `${origin}/restapi/v2.1/accounts/${seed.accountId}/envelopes`;
  /** A REST call as the SDK makes it, with a token fresh for the current fake time. */
  const call = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => {
    const { access_token } = await token();
    const res = await request(`${base}${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.body.text();
    return { status: res.statusCode, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };
  return { h, seed, clock, base, call, token };
}

/** A one-page PDF, base64. */
export async function onePagePdf(): Promise<string> {
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]);
  return Buffer.from(await pdf.save()).toString('base64');
}

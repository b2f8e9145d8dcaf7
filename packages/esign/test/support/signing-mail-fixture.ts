import type { ParsedMail } from 'mailparser';
import { after, before } from 'node:test';
import { pollUntil } from '@signet/kit';
import { buildConverter, type Converter } from '@signet/pdf';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';
import { startSmtpListener, type SmtpListener } from './smtp-listener.ts';

/** What a file of mail-reading signing tests shares: one server with a real SMTP listener, a warm converter, a one-page PDF. */
export type SigningMailFixture = {
  readonly h: SigningHarness;
  readonly smtp: SmtpListener;
  /** A one-page sample PDF, base64 (documentBase64). */
  readonly pdf: string;
  /** The mails one address received, once `count` of them are there. */
  mailsTo(email: string, count: number): Promise<ParsedMail[]>;
};

/**
 * Registers the file's before/after hooks that start and stop them (one server for the file: what
 * the harness would stop after a test, it stops after the file); the fields are set once `before`
 * has run (read them inside tests, not at module level).
 */
export function signingMailFixture(): SigningMailFixture {
  const fx = {} as { h: SigningHarness; smtp: SmtpListener; pdf: string };
  let converter: Converter | undefined;
  const cleanups: (() => unknown)[] = [];
  before(async () => {
    converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
    const ctx = { after: (fn: () => unknown) => void cleanups.push(fn) } as unknown as Parameters<typeof startSigningEsign>[0];
    fx.smtp = await startSmtpListener(ctx);
    fx.h = await startSigningEsign(ctx, { converter, smtpUrl: fx.smtp.url });
    fx.pdf = b64(await samplePdf(1));
  });
  after(async () => {
    for (const fn of cleanups.reverse()) await fn();
    await converter?.close();
  });
  return Object.assign(fx, {
    async mailsTo(email: string, count: number): Promise<ParsedMail[]> {
      const of = () => fx.smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.value[0]?.address === email);
      await pollUntil(() => of().length >= count, { timeoutMs: 20_000, what: `${count} mail(s) to ${email}` });
      return of();
    },
  });
}

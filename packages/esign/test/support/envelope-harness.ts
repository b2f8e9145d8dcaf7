import type { TestContext } from 'node:test';
import type { EnvelopeConverter } from '../../src/restapi/envelopes/pdf-adapters.ts';
import { startEsign, type Harness } from './esign-harness.ts';

/** An esign with the envelope routes, the outbox worker and (without SMTP) the dev mailbox. */
export type EnvelopeHarness = Harness;

/**
 * Starts esign on 127.0.0.1:0 with a fresh SQLite file, a converter and (optionally) SMTP_URL:
 * envelope routes, the outbox worker (woken by every change that writes mail), and the dev
 * mailbox pages when `smtpUrl` is unset.
 */
export function startEnvelopeEsign(t: TestContext, options: { converter: EnvelopeConverter; smtpUrl?: string }): Promise<EnvelopeHarness> {
  // The outbox worker runs on the real clock (its backoff must elapse for a poll to see it);
  // the fake clock only stamps envelopes, and never runs ahead of real time here.
  return startEsign(t, {
    ...(options.smtpUrl ? { settings: { SMTP_URL: options.smtpUrl } } : {}),
    deps: { converter: options.converter, mailWorker: { pollIntervalMs: 50 } },
  });
}

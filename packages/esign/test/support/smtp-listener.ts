import type { TestContext } from 'node:test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { listenOnLoopback } from '@signet/kit/testing';

/** A real SMTP server on 127.0.0.1:0 that parses what it receives; closed in teardown. */
export type SmtpListener = {
  url: string;
  received: ParsedMail[];
  /** Replies to the next `count` messages with `code` (4xx: try later, 5xx: refused). */
  rejectNext(count: number, code: number): void;
};

export async function startSmtpListener(t: TestContext): Promise<SmtpListener> {
  const received: ParsedMail[] = [];
  let rejections: { count: number; code: number } = { count: 0, code: 451 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          if (rejections.count > 0) {
            rejections.count--;
            const err = Object.assign(new Error(rejections.code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: rejections.code });
            callback(err);
            return;
          }
          received.push(mail);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  const port = await listenOnLoopback(server.server);
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    rejectNext(count, code) {
      rejections = { count, code };
    },
  };
}

// RFC 5322 §3.2.3 dot-atom-text: atext runs joined by single dots.
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const DOT_ATOM = new RegExp(`^${ATEXT}(?:\\.${ATEXT})*$`);

/**
 * The Message-ID of the mail an outbox row carries: `<row-id@host>`, the same at every attempt.
 * SMTP has no exactly-once: a sender that dies after the server's 250 and before recording the
 * delivery sends the mail again. A Message-ID names one version of one message (RFC 5322
 * §3.6.4), so the copy sent again keeps it, and a receiver can tell it is the same mail (mail
 * stores and clients that de-duplicate do so on this header; the dev mailbox does). `host` is
 * PUBLIC_URL's host name, the same on every instance; the row id is a UUID, unique in the outbox.
 */
export function outboxMessageId(outboxId: string, host: string): string {
  // msg-id = "<" id-left "@" id-right ">": both sides dot-atom-text (a bracketed IPv6 literal
  // is a no-fold-literal, also allowed on the right).
  if (!DOT_ATOM.test(outboxId)) throw new TypeError(`outbox id "${outboxId}" cannot be a Message-ID's left part`);
  if (!DOT_ATOM.test(host) && !/^\[[0-9A-Fa-f:.]+\]$/.test(host)) throw new TypeError(`host "${host}" (PUBLIC_URL's) cannot be a Message-ID's right part`);
  return `<${outboxId}@${host}>`;
}

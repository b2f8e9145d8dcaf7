/**
 * The Message-ID of the mail an outbox row carries: `<row-id@host>`, the same at every attempt.
 * SMTP has no exactly-once: a sender that dies after the server's 250 and before recording the
 * delivery sends the mail again. RFC 5322 §3.6.4 makes a re-sent message keep its Message-ID,
 * and receivers de-duplicate on it (mail stores and clients show one message), so the stable id
 * turns at-least-once transport into one message at the recipient. `host` is PUBLIC_URL's host
 * name, the same on every instance; the row id is a UUID, unique across the outbox.
 */
export function outboxMessageId(outboxId: string, host: string): string {
  // msg-id = "<" id-left "@" id-right ">": both sides dot-atom-text (a bracketed IPv6 literal
  // is a no-fold-literal, also allowed on the right).
  if (!/^[A-Za-z0-9._-]+$/.test(outboxId)) throw new TypeError(`outbox id "${outboxId}" cannot be a Message-ID's left part`);
  if (!/^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])$/.test(host)) throw new TypeError(`host "${host}" cannot be a Message-ID's right part`);
  return `<${outboxId}@${host}>`;
}

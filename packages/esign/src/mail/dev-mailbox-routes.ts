import type { FastifyInstance } from 'fastify';
import { EsignError } from '../errors.ts';
import { clientIp, isLoopbackAddress } from '../web/client-ip.ts';
import type { DevMailboxMessage, DevTextMessage } from '../store/dev-mailbox-repository.ts';
import { html, layout, type SafeHtml } from '../web/html.ts';

/** What the pages read (store/dev-mailbox-repository.ts). */
export interface DevMailboxReader {
  list(limit?: number): Promise<DevMailboxMessage[]>;
  find(id: string): Promise<DevMailboxMessage | undefined>;
  /** Passcodes "sent" by text or call (mail/dev-text-outbox.ts). */
  texts(limit?: number): Promise<DevTextMessage[]>;
}

/** URLs in a text part become links; everything else stays escaped text. */
function linkify(text: string): SafeHtml[] {
  return text.split(/(https?:\/\/[^\s<>"']+)/g).map((part, i) => (i % 2 === 1 ? html`<a href="${part}">${part}</a>` : html`${part}`));
}

function listPage(messages: readonly DevMailboxMessage[], texts: readonly DevTextMessage[]): string {
  const rows = messages.map((m) => html`<tr><td>${m.receivedAt}</td><td>${m.message.to.name} &lt;${m.message.to.email}&gt;</td><td><a href="/dev/mailbox/${m.id}">${m.message.subject}</a></td></tr>`);
  const textRows = texts.map((t) => html`<tr><td>${t.sentAt}</td><td>${t.channel === 'voice' ? 'call' : 'text'} to ${t.to}</td><td>${t.body}</td></tr>`);
  return layout('Dev mailbox', html`<section>
<p>Mail goes here because SMTP_URL is not set. Newest first.</p>
${messages.length === 0 ? html`<p>No messages yet.</p>` : html`<table><thead><tr><th>Received</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`}
</section>
<section><h2>Text messages and calls</h2>
<p>One-time passcodes sent by text or voice call land here: this service has no SMS provider wired (docs/esign-signing.md).</p>
${texts.length === 0 ? html`<p>No text messages yet.</p>` : html`<table><thead><tr><th>Sent</th><th>To</th><th>Message</th></tr></thead><tbody>${textRows}</tbody></table>`}
</section>`);
}

function messagePage(m: DevMailboxMessage): string {
  const attachments = m.message.attachments ?? [];
  return layout(m.message.subject, html`<section>
<dl>
<dt>To</dt><dd>${m.message.to.name} &lt;${m.message.to.email}&gt;</dd>
<dt>Received</dt><dd>${m.receivedAt}</dd>
${m.message.envelopeId ? html`<dt>Envelope</dt><dd>${m.message.envelopeId}</dd>` : ''}
${attachments.length > 0 ? html`<dt>Attachments</dt><dd>${attachments.map((a, i) => html`<a href="/dev/mailbox/${m.id}/attachments/${i}">${a.filename}</a> `)}</dd>` : ''}
</dl>
<p><a href="/dev/mailbox/${m.id}/html">View the HTML part</a> · <a href="/dev/mailbox">Back to the mailbox</a></p>
</section>
<section><h2>Text part</h2><pre style="white-space:pre-wrap">${linkify(m.message.text)}</pre></section>`);
}

/**
 * The warning to log at start when the dev mailbox is on but the public URL is not on this
 * machine: mail meant for real people lands in a page only this machine can read.
 */
export function devMailboxExposureWarning(publicUrl: string): string | undefined {
  const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || isLoopbackAddress(host)) return undefined;
  return `SMTP_URL is not set, so every mail (signing links, completed documents) goes to the dev mailbox, while PUBLIC_URL ${publicUrl} is not on this machine: set SMTP_URL before real people use this service. The dev mailbox answers only clients on this machine.`;
}

/**
 * The development mailbox pages (used when SMTP_URL is unset): a list, one message with its
 * text part, and its HTML part served on its own under a sandboxing CSP so the mail's markup
 * can never script this origin. They show every signing link and completed PDF, so they answer
 * only a client on this machine (through the gateway: the address it forwards); anyone else
 * gets the same 404 as for any unknown page.
 */
export function registerDevMailboxRoutes(app: FastifyInstance, mailbox: DevMailboxReader): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const hidden = (request.routeOptions.url ?? request.url).startsWith('/dev/mailbox') && !isLoopbackAddress(clientIp(request.socket.remoteAddress, request.headers['x-forwarded-for']));
    done(hidden ? new EsignError('RESOURCE_NOT_FOUND') : undefined);
  });
  const get = async (id: string) => (await mailbox.find(id)) ?? Promise.reject(new EsignError('RESOURCE_NOT_FOUND'));
  app.get('/dev/mailbox', async (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(listPage(await mailbox.list(), await mailbox.texts())));
  app.get<{ Params: { id: string } }>('/dev/mailbox/:id', async (request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(messagePage(await get(request.params.id))));
  app.get<{ Params: { id: string } }>('/dev/mailbox/:id/html', {
    // Route-level onSend runs after the site-wide one: the mail's inline styles may render,
    // nothing may run (`sandbox` also gives the document an opaque origin).
    onSend: async (_request, reply) => {
      reply.header('content-security-policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    },
  }, async (request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send((await get(request.params.id)).message.html));
  app.get<{ Params: { id: string; index: string } }>('/dev/mailbox/:id/attachments/:index', async (request, reply) => {
    const attachment = (await get(request.params.id)).message.attachments?.[Number(request.params.index)];
    if (!attachment) throw new EsignError('RESOURCE_NOT_FOUND');
    return reply.type(attachment.contentType).header('content-disposition', `attachment; filename="${attachment.filename.replace(/[^A-Za-z0-9 ._-]+/g, '_')}"`).send(Buffer.from(attachment.contentBase64, 'base64'));
  });
}

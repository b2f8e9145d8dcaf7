import { html, layout, type SafeHtml } from '../web/html.ts';
import { errorBox } from '../web/page-parts.ts';
import type { VerifyVerdict } from './verify-verdict.ts';

const HEADLINES: Record<VerifyVerdict['status'], string> = {
  verified: 'Intact and sealed by this service',
  altered: 'Altered: this is not the document that was sealed',
  unknown: 'Unknown: not a document sealed by this service',
  unsigned: 'No seal: this PDF is not sealed',
};

function uploadForm(maxMb: number): SafeHtml {
  return html`<form method="post" action="/verify" enctype="multipart/form-data">
<p>Choose a PDF that Signet sealed (up to ${maxMb} MB). It is checked and not kept.</p>
<label>PDF file <input type="file" name="file" accept="application/pdf,.pdf" required></label>
<button type="submit">Verify</button>
</form>`;
}

const when = (iso: string | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC') : '');

function verdictSection(v: VerifyVerdict): SafeHtml {
  const seal = v.seal;
  return html`<section class="verdict verdict-${v.status}" data-status="${v.status}">
<h2>${HEADLINES[v.status]}</h2>
<p>${v.message}</p>
${seal ? html`<dl>
<dt>Seal</dt><dd>${seal.intact ? 'intact: every byte is as it was sealed' : 'broken: the content changed after sealing'}</dd>
${seal.sealedBy ? html`<dt>Sealed by</dt><dd>${[seal.sealedBy.commonName, seal.sealedBy.organization].filter(Boolean).join(', ')}</dd>` : ''}
${seal.trustedTime ? html`<dt>Trusted time</dt><dd>${when(seal.trustedTime.time)} (from ${seal.trustedTime.authority?.commonName ?? 'a timestamp authority'})</dd>` : ''}
${seal.sealedAt ? html`<dt>Time the seal states</dt><dd>${when(seal.sealedAt)}</dd>` : ''}
${seal.level ? html`<dt>Evidence level</dt><dd>PAdES ${seal.level}${seal.documentTimestamps > 0 ? `, ${seal.documentTimestamps} document timestamp${seal.documentTimestamps > 1 ? 's' : ''}` : ''}</dd>` : ''}
</dl>` : ''}
${v.envelope ? html`<h2>Envelope ${v.envelope.envelopeId}</h2>
<dl>
<dt>Subject</dt><dd>${v.envelope.subject}</dd>
${v.envelope.sentAt ? html`<dt>Sent</dt><dd>${when(v.envelope.sentAt)}</dd>` : ''}
${v.envelope.completedAt ? html`<dt>Completed</dt><dd>${when(v.envelope.completedAt)}</dd>` : ''}
</dl>
<h3>Signers</h3>
<table class="signers"><thead><tr><th>Name</th><th>E-mail</th><th>Signed</th></tr></thead><tbody>
${v.envelope.signers.map((s) => html`<tr><td>${s.name}</td><td>${s.email}</td><td>${when(s.signedAt) || 'not signed'}</td></tr>`)}
</tbody></table>
<h3>History</h3>
<table class="events"><thead><tr><th>Time</th><th>Event</th><th>By</th></tr></thead><tbody>
${v.envelope.events.map((e) => html`<tr><td>${when(e.at)}</td><td>${e.action}</td><td>${e.by ?? ''}</td></tr>`)}
</tbody></table>` : ''}
<p class="fingerprint">SHA-256 of the file: <code>${v.sha256}</code></p>
</section>`;
}

/** The /verify page: the upload form, and the verdict on the file just checked (if any). */
export function verifyPage(options: { maxMb: number; verdict?: VerifyVerdict; error?: string }): string {
  return layout('Verify a sealed document', html`${errorBox(options.error)}${options.verdict ? verdictSection(options.verdict) : ''}${uploadForm(options.maxMb)}`);
}

import type { Language } from '../domain/language/languages.ts';
import { translator, type Translator } from '../i18n/translator.ts';
import { html, layout, type SafeHtml } from '../web/html.ts';
import { errorBox } from '../web/page-parts.ts';
import type { VerifyVerdict } from './verify-verdict.ts';

// Only a file this deployment sealed is answered in its account's language (verify.* in the
// catalogs); the other verdicts concern no account, so they stay in English.
const HEADLINES: Record<Exclude<VerifyVerdict['status'], 'verified'>, string> = {
  altered: 'Altered: this is not the document that was sealed',
  unknown: 'Unknown: not a document sealed by this service',
  unsigned: 'No seal: this PDF is not sealed',
};

function uploadForm(t: Translator['t'], maxMb: number): SafeHtml {
  return html`<form method="post" action="/verify" enctype="multipart/form-data">
<p>${t('verify.intro', { maxMb: String(maxMb) })}</p>
<label>${t('verify.fileLabel')} <input type="file" name="file" accept="application/pdf,.pdf" required></label>
<button type="submit">${t('verify.button')}</button>
</form>`;
}

const when = (iso: string | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC') : '');

function verdictSection(v: VerifyVerdict, t: Translator['t']): SafeHtml {
  const seal = v.seal;
  const hashes = v.envelope?.events.some((e) => e.ipHash !== undefined) ?? false;
  return html`<section class="verdict verdict-${v.status}" data-status="${v.status}">
<h2>${v.status === 'verified' ? t('verify.verified.headline') : HEADLINES[v.status]}</h2>
<p>${v.message}</p>
${seal ? html`<dl>
<dt>${t('verify.seal')}</dt><dd>${seal.intact ? t('verify.sealIntact') : 'broken: the content changed after sealing'}</dd>
${seal.sealedBy ? html`<dt>${v.status === 'verified' ? t('verify.sealedBy') : 'Named in its certificate (not checked)'}</dt><dd>${[seal.sealedBy.commonName, seal.sealedBy.organization].filter(Boolean).join(', ')}</dd>` : ''}
${seal.trustedTime ? html`<dt>${t('verify.trustedTime')}</dt><dd>${t('verify.trustedTimeValue', { time: when(seal.trustedTime.time), authority: seal.trustedTime.authority?.commonName ?? t('verify.aTimestampAuthority') })}</dd>` : ''}
${seal.sealedAt ? html`<dt>${t('verify.sealTime')}</dt><dd>${when(seal.sealedAt)}</dd>` : ''}
${seal.level ? html`<dt>${t('verify.level')}</dt><dd>PAdES ${seal.level}${seal.documentTimestamps > 0 ? `, ${t('verify.documentTimestamps', { count: seal.documentTimestamps })}` : ''}</dd>` : ''}
</dl>` : ''}
${v.envelope ? html`<h2>${t('verify.envelope', { envelopeId: v.envelope.envelopeId })}</h2>
<dl>
<dt>${t('verify.subject')}</dt><dd>${v.envelope.subject}</dd>
${v.envelope.sentAt ? html`<dt>${t('verify.sent')}</dt><dd>${when(v.envelope.sentAt)}</dd>` : ''}
${v.envelope.completedAt ? html`<dt>${t('verify.completed')}</dt><dd>${when(v.envelope.completedAt)}</dd>` : ''}
</dl>
<h3>${t('verify.signers')}</h3>
<table class="signers"><thead><tr><th>${t('verify.name')}</th><th>${t('verify.email')}</th><th>${t('verify.signed')}</th></tr></thead><tbody>
${v.envelope.signers.map((s) => html`<tr><td>${s.name}</td><td>${s.email}</td><td>${when(s.signedAt) || t('verify.notSigned')}</td></tr>`)}
</tbody></table>
<h3>${t('verify.history')}</h3>
<table class="events"><thead><tr><th>${t('verify.time')}</th><th>${t('verify.event')}</th><th>${t('verify.by')}</th>${hashes ? html`<th>${t('verify.ipHashed')}</th>` : ''}</tr></thead><tbody>
${v.envelope.events.map((e) => html`<tr><td>${when(e.at)}</td><td>${e.action}</td><td>${e.by ?? ''}</td>${hashes ? html`<td><code>${e.ipHash ?? ''}</code></td>` : ''}</tr>`)}
</tbody></table>` : ''}
<p class="fingerprint">${t('verify.fingerprint')} <code>${v.sha256}</code></p>
</section>`;
}

/**
 * The /verify page: the upload form, and the verdict on the file just checked (if any), in the
 * verdict's language (a verified file's account's) or English.
 */
export function verifyPage(options: { maxMb: number; verdict?: VerifyVerdict; error?: string }): string {
  const language: Language = options.verdict?.language ?? 'en';
  const { t, locale } = translator(language);
  return layout(t('verify.title'), html`${errorBox(options.error)}${options.verdict ? verdictSection(options.verdict, t) : ''}${uploadForm(t, options.maxMb)}`, undefined, locale);
}

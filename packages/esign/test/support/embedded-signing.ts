import assert from 'node:assert/strict';
import { FormClient, formFields } from './form-client.ts';

/**
 * Signs an envelope as its embedded signer, the way an integrator's page does: a recipient
 * view for `clientUserId`, the view URL redeemed, every tab signed with a typed signature.
 */
export async function signAsEmbedded(h: { origin: string; api(method: string, path: string, body?: unknown): Promise<Response> }, envelopeId: string, signer: { email: string; name: string; clientUserId: string }): Promise<void> {
  const view = await h.api('POST', `/envelopes/${envelopeId}/views/recipient`, { returnUrl: 'https://app.example/done', authenticationMethod: 'none', email: signer.email, userName: signer.name, clientUserId: signer.clientUserId });
  assert.equal(view.status, 201, await view.clone().text());
  const { url } = (await view.json()) as { url: string };
  const browser = new FormClient(h.origin);
  const redeemed = await browser.get(new URL(url).pathname);
  assert.equal(redeemed.status, 303, redeemed.text);
  const location = redeemed.headers.location;
  const path = typeof location === 'string' ? location : assert.fail('a signing page');
  const page = await browser.get(path);
  assert.equal(page.status, 200, page.text);
  const tabs = [...page.text.matchAll(/data-tab-id="([^"]+)"/g)].map((m) => m[1] ?? '');
  const finished = await browser.post(`${path}/finish`, { ...formFields(page.text, `${path}/finish`), signatureKind: 'typed', signatureText: signer.name, signedTabs: tabs.join(',') });
  assert.equal(finished.status, 303, finished.text);
}

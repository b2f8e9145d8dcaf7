import assert from 'node:assert/strict';
import { makeBlankPng, makeGarbagePng } from '../../../pdf/test/raster.fixture.ts';
import { formFields, type Answer, type FormClient } from './form-client.ts';

const dataUrl = (png: Uint8Array) => `data:image/png;base64,${Buffer.from(png).toString('base64')}`;

/** Opens a signing page (path of the link) and returns a Finish that signs every tab with a drawn PNG. */
export async function drawnSignatureFinish(signer: FormClient, path: string): Promise<(png: Uint8Array) => Promise<Answer>> {
  const page = await signer.get(path);
  assert.equal(page.status, 200, page.text);
  const tabs = [...page.text.matchAll(/data-tab-id="([^"]+)"/g)].map((m) => m[1] ?? '');
  return (png) => signer.post(`${path}/finish`, { ...formFields(page.text, `${path}/finish`), signatureKind: 'image', signatureImage: dataUrl(png), signedTabs: tabs.join(',') });
}

/** The two drawings the stamp could not use, each refused at Finish with the page's reason. */
export async function assertUnusableDrawingsRefused(finish: (png: Uint8Array) => Promise<Answer>): Promise<void> {
  const garbage = await finish(makeGarbagePng());
  assert.equal(garbage.status, 400, garbage.text);
  assert.match(garbage.text, /drawn signature cannot be used: It could not be decoded/);
  const bomb = await finish(makeBlankPng(8000, 8000));
  assert.equal(bomb.status, 400, bomb.text);
  assert.match(bomb.text, /8000×8000 pixels; the limit is 2000×1000/);
}

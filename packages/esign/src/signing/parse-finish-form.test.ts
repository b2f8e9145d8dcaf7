import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../errors.ts';
import { parseFinishForm } from './parse-finish-form.ts';

const tabs = { requiredTabIds: ['t1', 't2'], allTabIds: ['t1', 't2', 't3'] };
const png = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]).toString('base64')}`;

test('a typed signature with every required tab is accepted; whitespace is collapsed', () => {
  const form = parseFinishForm({ signatureKind: 'typed', signatureText: '  Ada   Lovelace ', signedTabs: 't1,t2,t2' }, tabs);
  assert.deepEqual(form, { signature: { kind: 'typed', text: 'Ada Lovelace' }, signedTabIds: ['t1', 't2'], attachments: new Map() });
});

test('a drawn signature must be a PNG data URL', () => {
  const form = parseFinishForm({ signatureKind: 'image', signatureImage: png, signedTabs: 't1,t2,t3' }, tabs);
  assert.equal(form.signature?.kind, 'image');
  assert.throws(() => parseFinishForm({ signatureKind: 'image', signatureImage: 'data:image/png;base64,AAAA', signedTabs: 't1,t2' }, tabs), /not a PNG/);
  assert.throws(() => parseFinishForm({ signatureKind: 'image', signatureImage: 'data:image/svg+xml;base64,AAAA', signedTabs: 't1,t2' }, tabs), /must be a PNG/);
});

test('unsigned required tabs, foreign tabs and a missing signature are refused with INVALID_REQUEST_PARAMETER', () => {
  const cases = [
    { signatureKind: 'typed', signatureText: 'Ada', signedTabs: 't1' },
    { signatureKind: 'typed', signatureText: 'Ada', signedTabs: 't1,t2,other' },
    { signatureKind: 'typed', signatureText: '   ', signedTabs: 't1,t2' },
    { signedTabs: 't1,t2' },
  ];
  for (const body of cases) {
    assert.throws(() => parseFinishForm(body, tabs), (err: unknown) => err instanceof EsignError && err.code === 'INVALID_REQUEST_PARAMETER');
  }
});

test('a signer with no signature tab finishes without a signature; one who signed a tab must adopt one', () => {
  const none = { requiredTabIds: [], allTabIds: ['t1'] };
  assert.deepEqual(parseFinishForm({ signatureKind: '', signedTabs: '' }, none), { signedTabIds: [], attachments: new Map() });
  assert.throws(() => parseFinishForm({ signedTabs: 't1' }, none), /Adopt a signature/);
});

test('attachments: only the signer\'s own attachment tabs, each a data URL of at most 5 MB; anything else is INVALID_REQUEST_PARAMETER', () => {
  const base = { signatureKind: 'typed', signatureText: 'Ada', signedTabs: 't1,t2' };
  const own = { ...tabs, attachmentTabIds: ['a1'] };
  const pdf = `data:application/pdf;base64,${Buffer.from('%PDF-1.7').toString('base64')}`;
  assert.deepEqual([...parseFinishForm({ ...base, attachments: JSON.stringify({ a1: pdf }) }, own).attachments.keys()], ['a1']);
  const big = `data:application/pdf;base64,${Buffer.alloc(5 * 1024 * 1024 + 1).toString('base64')}`;
  for (const [attachments, why] of [
    [JSON.stringify({ a1: big }), /larger than 5 MB/],
    [JSON.stringify({ t1: pdf }), /Tab t1 is not yours to attach a file to/],
    [JSON.stringify({ a1: 'not a data url' }), /An attachment is not a file/],
    [JSON.stringify({ a1: 'data:application/pdf;base64,' }), /empty/],
    ['[1]', /not readable/],
    ['{', /not readable/],
  ] as const) {
    assert.throws(() => parseFinishForm({ ...base, attachments }, own), (err: unknown) => err instanceof EsignError && err.code === 'INVALID_REQUEST_PARAMETER' && why.test(err.message));
  }
});

// Fuzzing the envelope request validator: every generated or mutated
// EnvelopeDefinition either becomes a draft or is refused with a DocuSign-shaped 4xx
// `{errorCode, message}` — never another exception, never a hang. `npm test` runs a few
// thousand inputs; the full run is
//   FUZZ_RUNS=100000 npm test -- packages/esign/test/fuzz
// (FUZZ_SEED=<n> replays one seed). Figures in docs/reliability.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EsignError } from '../../src/errors.ts';
import { parseEnvelopeDefinition } from '../../src/restapi/envelopes/parse-envelope-definition.ts';
import { fuzzRuns, fuzzSeed, recordSlowest } from '../../../gateway/test/fuzz/fuzz-budget.ts';

// Values that are wrong almost everywhere: wrong types, blanks, huge and odd numbers, nesting.
const JUNK: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, '', ' ', '\u0000', 0, -1, 1.5, 1e308, -0, 2_147_483_648, 'NaN', 'Infinity', '1e5', '0x10', true, 'TRUE', [], {}, [null], 'a'.repeat(20_000), '__proto__'),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 30, unit: 'binary' }),
);

/** Mostly valid, sometimes junk, sometimes missing: reaches every branch of the reader. */
function sometimes<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: JUNK }, { weight: 1, arbitrary: fc.constant(undefined) });
}

const BASE64 = fc.oneof(
  { weight: 4, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('base64')) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b).toString('base64').slice(0, -1)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);
const NUMERIC = fc.oneof(fc.integer({ min: -5, max: 1_000_000 }).map(String), fc.integer({ min: -5, max: 1000 }), fc.double({ noNaN: false }), fc.constantFrom('1.5', '+3', '.5', '1.', ' 7 '));
const TAB = fc.record(
  {
    anchorString: sometimes(fc.constantFrom('/sn1/', 'Sign:', '')),
    anchorUnits: sometimes(fc.constantFrom('pixels', 'inches', 'mms', 'cms', 'furlongs')),
    anchorXOffset: sometimes(NUMERIC),
    anchorYOffset: sometimes(NUMERIC),
    anchorIgnoreIfNotPresent: sometimes(fc.constantFrom(true, false, 'true', 'False', 'yes')),
    anchorHorizontalAlignment: sometimes(fc.constantFrom('left', 'right', 'center')),
    documentId: sometimes(fc.constantFrom('1', '2', '99')),
    pageNumber: sometimes(NUMERIC),
    xPosition: sometimes(NUMERIC),
    yPosition: sometimes(NUMERIC),
    scaleValue: sometimes(NUMERIC),
    optional: sometimes(fc.boolean()),
    tabLabel: sometimes(fc.string({ maxLength: 20 })),
  },
  { requiredKeys: [] },
);
const RECIPIENT = fc.record(
  {
    recipientId: sometimes(fc.constantFrom('1', '2', '3', 'a')),
    email: sometimes(fc.oneof(fc.emailAddress(), fc.constantFrom('no-at-sign', 'a@b', '"quoted"@example.com', 'x@[127.0.0.1]', 'é@exämple.com'))),
    name: sometimes(fc.string({ maxLength: 20 })),
    firstName: sometimes(fc.string({ maxLength: 10 })),
    lastName: sometimes(fc.string({ maxLength: 10 })),
    routingOrder: sometimes(NUMERIC),
    clientUserId: sometimes(fc.string({ maxLength: 10 })),
    tabs: sometimes(fc.record({ signHereTabs: sometimes(fc.array(sometimes(TAB), { maxLength: 3 })), textTabs: sometimes(fc.array(fc.object(), { maxLength: 1 })) }, { requiredKeys: [] })),
  },
  { requiredKeys: [] },
);
const DOCUMENT = fc.record(
  {
    documentId: sometimes(fc.constantFrom('1', '2', '0', '01', '2147483648')),
    name: sometimes(fc.constantFrom('contract.pdf', 'a.docx', 'page.html', 'x.exe', 'noext', '')),
    fileExtension: sometimes(fc.constantFrom('pdf', 'docx', 'html', 'htm', 'odt', 'txt', 'PDF', 'exe')),
    documentBase64: sometimes(BASE64),
    remoteUrl: fc.option(fc.constant('http://169.254.169.254/'), { nil: undefined }),
  },
  { requiredKeys: [] },
);
const DEFINITION = fc.record(
  {
    status: sometimes(fc.constantFrom('sent', 'created', 'Sent', 'completed', 'voided')),
    emailSubject: sometimes(fc.string({ maxLength: 120 })),
    emailBlurb: sometimes(fc.string({ maxLength: 50 })),
    documents: sometimes(fc.array(sometimes(DOCUMENT), { maxLength: 3 })),
    recipients: sometimes(
      fc.record(
        {
          signers: sometimes(fc.array(sometimes(RECIPIENT), { maxLength: 3 })),
          carbonCopies: sometimes(fc.array(sometimes(RECIPIENT), { maxLength: 2 })),
          witnesses: fc.option(fc.array(fc.object(), { maxLength: 1 }), { nil: undefined }),
        },
        { requiredKeys: [] },
      ),
    ),
    templateId: fc.option(fc.uuid(), { nil: undefined }),
  },
  { requiredKeys: [] },
);
// JSON bodies as the server's parser would hand them over (own `__proto__` keys included).
const PROTO_KEYS = fc.constantFrom('{"__proto__":{"status":"sent"}}', '{"documents":[{"__proto__":{"documentId":"1"}}]}', '{"constructor":{"prototype":{"x":1}}}').map((t) => JSON.parse(t) as unknown);

const INPUTS: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: DEFINITION },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
  { weight: 1, arbitrary: PROTO_KEYS },
);

function checkOne(body: unknown): void {
  try {
    const draft = parseEnvelopeDefinition(body);
    assert.ok(draft.status === 'sent' || draft.status === 'created');
    assert.ok(draft.emailSubject.length > 0 && draft.emailSubject.length <= 100);
  } catch (e) {
    if (!(e instanceof EsignError)) throw new Error(`not an EsignError: ${String(e)}`, { cause: e });
    assert.ok(e.status >= 400 && e.status < 500, `status ${e.status}`);
    const wire = e.toBody();
    assert.ok(typeof wire.errorCode === 'string' && wire.errorCode !== 'UNSPECIFIED_ERROR', JSON.stringify(wire));
    assert.ok(typeof wire.message === 'string' && wire.message.length > 0);
  }
}

test('envelope validator: generated and mutated definitions become drafts or DocuSign 4xx errors', () => {
  const slowest = recordSlowest();
  const runs = fuzzRuns(4000);
  let accepted = 0;
  fc.assert(
    fc.property(INPUTS, (body) => {
      slowest.time('', () => checkOne(body));
      try {
        parseEnvelopeDefinition(body);
        accepted++;
      } catch {
        // counted by checkOne
      }
    }),
    { numRuns: runs, seed: fuzzSeed() },
  );
  slowest.report('envelope validator', runs);
  console.log(`fuzz envelope validator: ${accepted} of ${runs} inputs were valid drafts`);
  // The generator must reach the accepting path too, or the property says little.
  assert.ok(accepted > runs / 100, `only ${accepted} valid drafts`);
  assert.ok(slowest.ms < 1000, `slowest input took ${slowest.ms.toFixed(0)} ms`);
});

// Deeply nested documents are refused before they are parsed: the YAML composer overflowed the
// stack near 800 levels, and a second overflow ended the process with a fatal out-of-memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_NESTING, parseDeclarativeConfig } from '../../src/declarative/index.ts';
import { GatewayError } from '../../src/errors.ts';

const refused = (text: string, where: RegExp): void => {
  assert.throws(
    () => parseDeclarativeConfig(text),
    (e) => {
      assert.ok(e instanceof GatewayError && e.code === 'DECLARATIVE_CONFIG', String(e));
      assert.match(e.lines[0] ?? '', new RegExp(`^kong\\.yml:${where.source}: failed parsing declarative configuration: maximum nesting depth \\(${MAX_NESTING}\\) exceeded$`));
      return true;
    },
  );
};

test('deep flow YAML (200,000 unclosed `[`): refused at the first level too many, every time', () => {
  const text = '['.repeat(200_000);
  // Twice: the second overflow was the one that killed the process.
  refused(text, /1:257/);
  refused(text, /1:257/);
});

test('deep JSON (valid, 200,000 levels under a known key): refused with its position', () => {
  const text = `{"_format_version": "3.0",\n "services": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
  refused(text, /2:269/);
});

test('deep block YAML: refused', () => {
  refused(`_format_version: "3.0"\nservices:\n  - ${'- '.repeat(1000)}x\n`, /3:\d+/);
});

test('nesting within the bound still reaches validation', () => {
  assert.throws(
    () => parseDeclarativeConfig(`_format_version: "3.0"\nservices: ${'['.repeat(50)}${']'.repeat(50)}\n`),
    (e) => e instanceof GatewayError && !/nesting/.test(e.lines.join('\n')),
  );
});

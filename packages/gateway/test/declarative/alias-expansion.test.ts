// Aliases are weighed as expanded: a small document whose aliases copy one large anchored node
// many times validated, applied, then ended the admin process in JSON.stringify of its 201 body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_NESTING, parseDeclarativeConfig } from '../../src/declarative/index.ts';
import { GatewayError } from '../../src/errors.ts';
import { aliasBomb } from './alias-bomb.fixture.ts';

const refused = (text: string, reason: RegExp): void => {
  assert.throws(
    () => parseDeclarativeConfig(text),
    (e) => {
      assert.ok(e instanceof GatewayError && e.code === 'DECLARATIVE_CONFIG', String(e));
      assert.match(e.lines[0] ?? '', new RegExp(`^kong\\.yml:\\d+:\\d+: failed parsing declarative configuration: ${reason.source}$`));
      return true;
    },
  );
};

test('aliases expanding past 10 MiB: refused at the alias that crosses the bound (150 KB of text)', () => {
  // 999 aliases: within the YAML library's maxAliasCount (1000), which counts per anchor.
  const text = aliasBomb(120, 999);
  assert.ok(text.length < 150_000);
  refused(text, /aliases expand the document past 10485760 characters/);
});

test('an alias inside the node it names (a cycle): refused', () => {
  refused('_format_version: "3.0"\nservices: &s\n  - name: a\n    host: example.test\n    tags: *s\n', /alias \*s is inside the node it names/);
});

test('nesting through aliases: each anchor within the bound, their chain past it, refused', () => {
  const deep = (alias: string): string => '['.repeat(200) + alias + ']'.repeat(200);
  const text = `_format_version: "3.0"\na: &a ${deep('x')}\nb: &b ${deep('*a')}\nc: ${deep('*b')}\n`;
  refused(text, new RegExp(`maximum nesting depth \\(${MAX_NESTING}\\) exceeded`));
});

test('ordinary aliases (a shared plugin configuration, shared tags) still load', () => {
  const text = [
    '_format_version: "3.0"',
    'services:',
    '  - name: a',
    '    host: a.test',
    '    tags: &tags [team-x, prod]',
    '    plugins:',
    '      - name: rate-limiting',
    '        config: &limits {minute: 60, policy: local}',
    '  - name: b',
    '    host: b.test',
    '    tags: *tags',
    '    plugins:',
    '      - name: rate-limiting',
    '        config: *limits',
    '',
  ].join('\n');
  const snapshot = parseDeclarativeConfig(text);
  assert.deepEqual(snapshot.services.map((s) => s.tags), [['team-x', 'prod'], ['team-x', 'prod']]);
  assert.equal(snapshot.plugins.length, 2);
});

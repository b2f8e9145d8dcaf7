import assert from 'node:assert/strict';
import { test } from 'node:test';
import { safeReturnPath } from '../console/safe-return-path.ts';
import { escapeHtml, html } from './html.ts';

test('html escapes every interpolation except SafeHtml, lists included', () => {
  const name = `<script>alert("x")</script> & 'y'`;
  assert.equal(escapeHtml(name), '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;');
  const inner = html`<b>${name}</b>`;
  assert.equal(html`<p title="${name}">${inner}${[html`<i>1</i>`, '<2>']}${undefined}${false}${0}</p>`.value,
    '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"><b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</b><i>1</i>&lt;2&gt;0</p>');
});

test('the login return path stays on this site', () => {
  assert.equal(safeReturnPath('/oauth/auth?client_id=x'), '/oauth/auth?client_id=x');
  for (const bad of [undefined, 'https://evil.example/', '//evil.example/', '/\\evil.example', 'console', '/a\nb']) {
    assert.equal(safeReturnPath(bad), '/console', String(bad));
  }
});

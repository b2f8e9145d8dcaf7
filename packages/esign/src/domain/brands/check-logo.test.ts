import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { gif, jpeg, png } from '../../../test/support/images.ts';
import { checkLogo, MAX_LOGO_BYTES } from './check-logo.ts';

function refused(bytes: Uint8Array, why: RegExp): void {
  assert.throws(() => checkLogo(bytes), (err: unknown) => err instanceof EsignError && err.code === 'BRAND_LOGO_INVALID' && why.test(err.message), why.source);
}

test('PNG, JPEG and GIF logos are taken by their content, with their decoded size', () => {
  assert.deepEqual({ ...checkLogo(png(40, 20)), sha256: 'x' }, { sha256: 'x', mediaType: 'image/png', width: 40, height: 20 });
  assert.equal(checkLogo(png(3, 2)).sha256.length, 64);
  assert.deepEqual({ ...checkLogo(jpeg()), sha256: 'x' }, { sha256: 'x', mediaType: 'image/jpeg', width: 1, height: 1 });
  assert.deepEqual({ ...checkLogo(gif()), sha256: 'x' }, { sha256: 'x', mediaType: 'image/gif', width: 1, height: 1 });
});

test('an SVG, HTML or any other file is refused, whatever it claims to be', () => {
  refused(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>'), /PNG, JPEG or GIF/);
  refused(Buffer.from('<!doctype html><script>alert(1)</script>'), /PNG, JPEG or GIF/);
  refused(Buffer.alloc(0), /empty/);
});

test('polyglots are refused: markup after the image, or a GIF header that is also script', () => {
  refused(png(4, 4, [0, 0, 0], { after: Buffer.from('<html><script>alert(document.cookie)</script></html>') }), /after its IEND/);
  refused(Buffer.concat([jpeg(), Buffer.from('<script>alert(1)</script>')]), /after its end marker/);
  refused(Buffer.concat([gif(), Buffer.from('PK\u0003\u0004zip')]), /after its trailer/);
  // The classic GIF/JavaScript polyglot: "GIF89a/*…*/=alert(1)" makes the width 0x2a2f.
  refused(Buffer.from('GIF89a/*\u0000\u0000*/=alert(document.domain);'), /pixels/);
  const corrupt = png(4, 4);
  corrupt[40] = (corrupt[40] ?? 0) ^ 0xff;
  refused(corrupt, /corrupt|header/);
});

test('logo bombs are refused: a huge declared canvas, or pixel data that inflates past its header', () => {
  refused(png(1, 1, [0, 0, 0], { declared: { width: 50_000, height: 50_000 } }), /50000×50000/);
  refused(png(1, 1, [0, 0, 0], { declared: { width: 1999, height: 1999 } }), /1999×1999/);
  // 1×1 declared, 16 MiB of zeros deflated to ~16 KiB: stopped at the declared size, never inflated whole.
  const bomb = png(1, 1, [0, 0, 0], { raw: Buffer.alloc(16 * 1024 * 1024) });
  assert.ok(bomb.length < 32 * 1024, `${bomb.length}`);
  refused(bomb, /does not inflate to the size/);
  refused(Buffer.concat([png(1, 1), Buffer.alloc(MAX_LOGO_BYTES)]), /at most 307200/);
});

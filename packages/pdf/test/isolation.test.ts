import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { descendantsOf, listenOnLoopback } from '@signet/kit/testing';
import { buildConverter, findAnchors, type Converter } from '../src/index.ts';
import { makeDocxLinkingImage, makeHtml, popplerText } from './documents.fixture.ts';

describe('html conversion touches neither the network nor the file system', () => {
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    seen.push(req.url ?? '');
    res.setHeader('content-type', 'text/html');
    res.end('<p>REMOTE CONTENT LEAKED</p>');
  });
  let port = 0;
  let dir = '';
  let secretFile = '';
  let converter: Converter;

  before(async () => {
    port = await listenOnLoopback(server);
    dir = await mkdtemp(join(tmpdir(), 'signet-html-'));
    secretFile = join(dir, 'secret.html');
    await writeFile(secretFile, '<p>LOCAL FILE LEAKED</p>');
    await writeFile(join(dir, 'secret.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
    converter = await buildConverter({ htmlPages: 1 });
  });
  after(async () => {
    await converter.close();
    server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('remote images, styles, fonts, frames, refreshes and scripts are never requested', async () => {
    const remote = `http://127.0.0.1:${port}`;
    const hostile = `
      <img src="${remote}/img.png">
      <link rel="stylesheet" href="${remote}/style.css">
      <style>@import url("${remote}/import.css"); @font-face { font-family: x; src: url("${remote}/font.woff"); }
        body { background-image: url("${remote}/bg.png"); font-family: x; }</style>
      <iframe src="${remote}/frame.html"></iframe>
      <object data="${remote}/object.html"></object>
      <meta http-equiv="refresh" content="0; url=${remote}/refresh">
      <script src="${remote}/script.js"></script>
      <script>fetch("${remote}/fetch"); document.write("SCRIPT RAN");</script>
      <video src="${remote}/video.mp4" poster="${remote}/poster.png"></video>`;
    const pdf = await converter.convert({ bytes: makeHtml('Hostile offer', hostile), fileExtension: 'html' });
    const text = await popplerText(pdf);
    assert.match(text, /Hostile offer/);
    assert.doesNotMatch(text, /REMOTE CONTENT LEAKED|SCRIPT RAN/);
    assert.deepEqual(seen, [], 'the listener received no request');
    assert.equal((await findAnchors([pdf], { anchorString: '/sn1/' })).length, 1);
  });

  test('a meta refresh, away or back to itself, neither leaves the page nor loops (5 times each)', async () => {
    for (const target of [`0; url=http://127.0.0.1:${port}/away`, '0']) {
      for (let i = 0; i < 5; i++) {
        const pdf = await converter.convert({ bytes: makeHtml(`Refresh ${i}`, `<meta http-equiv="refresh" content="${target}">`), fileExtension: 'html' });
        assert.match(await popplerText(pdf), new RegExp(`Refresh ${i}`));
      }
    }
    assert.deepEqual(seen, []);
  });

  test('file:// frames, images and links do not read local files', async () => {
    const local = pathToFileURL(secretFile).href;
    const hostile = `
      <iframe src="${local}"></iframe>
      <object data="${local}"></object>
      <embed src="${local}">
      <img src="${pathToFileURL(join(dir, 'secret.png')).href}">
      <img src="file:///etc/passwd">
      <base href="file:///"><iframe src="etc/hostname"></iframe>`;
    const pdf = await converter.convert({ bytes: makeHtml('Local offer', hostile), fileExtension: 'htm' });
    const text = await popplerText(pdf);
    assert.match(text, /Local offer/);
    assert.doesNotMatch(text, /LOCAL FILE LEAKED|root:/);
  });

  test('a plain document still prints with its inline styles and data: images', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const pdf = await converter.convert({ bytes: makeHtml('Styled offer', `<img alt="dot" src="data:image/png;base64,${png}">`), fileExtension: 'html' });
    assert.match(await popplerText(pdf), /Styled offer/);
    assert.deepEqual(seen, []);
  });

  test('Chromium renders the attacker\'s HTML as an unprivileged user with its sandbox on', async () => {
    await converter.convert({ bytes: makeHtml('Sandboxed'), fileExtension: 'html' });
    // The browser this converter started stays up between documents: every Chromium process below this one.
    const chromium = descendants(process.pid).filter((p) => /chromium/.test(p.cmdline));
    assert.ok(chromium.some((p) => p.cmdline.includes('--type=renderer')), `a renderer among ${chromium.length} Chromium processes`);
    for (const p of chromium) {
      assert.doesNotMatch(p.cmdline, /--no-sandbox/, `pid ${p.pid} runs without the sandbox`);
      assert.notEqual(p.uid, 0, `pid ${p.pid} (${p.cmdline.slice(0, 80)}) runs as root`);
    }
    for (const renderer of chromium.filter((p) => p.cmdline.includes('--type=renderer'))) {
      assert.equal(renderer.seccomp, 2, `renderer ${renderer.pid} is under a seccomp-bpf filter`);
      assert.notEqual(renderer.pidNamespace, readlinkSync('/proc/self/ns/pid'), `renderer ${renderer.pid} has its own pid namespace`);
    }
  });
});

type Proc = { pid: number; uid: number; seccomp: number; cmdline: string; pidNamespace: string };

/** What the sandbox test reads of every live process below `root` (one gone meanwhile is skipped). */
function descendants(root: number): Proc[] {
  return descendantsOf(root).flatMap((pid) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const field = (name: string) => new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1];
      return [{
        pid,
        uid: Number(field('Uid')),
        seccomp: Number(field('Seccomp') ?? 0),
        cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '),
        pidNamespace: readlinkSync(`/proc/${pid}/ns/pid`),
      }];
    } catch {
      return [];
    }
  });
}

describe('LibreOffice does not fetch what a document links to', () => {
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    seen.push(req.url ?? '');
    res.end();
  });
  let port = 0;
  before(async () => {
    port = await listenOnLoopback(server);
  });
  after(() => server.close());

  // Without both guards LibreOffice requests the linked image three times while loading.
  test('with its network namespace and the profile setting (the defaults)', async () => {
    const converter = await buildConverter({ officeWorkers: 1 });
    try {
      const pdf = await converter.convert({ bytes: makeDocxLinkingImage(`http://127.0.0.1:${port}/warm.png`, 'Warm linked'), fileExtension: 'docx' });
      assert.match(await popplerText(pdf), /Warm linked/);
      assert.deepEqual(seen, []);
    } finally {
      await converter.close();
    }
  });

  test('with the profile setting alone (no namespace), on the cold path', async () => {
    const converter = await buildConverter({ officeMode: 'cold', isolateOfficeNetwork: false });
    try {
      assert.equal(converter.stats().officeNetworkIsolated, false);
      const pdf = await converter.convert({ bytes: makeDocxLinkingImage(`http://127.0.0.1:${port}/cold.png`, 'Cold linked'), fileExtension: 'docx' });
      assert.match(await popplerText(pdf), /Cold linked/);
      assert.deepEqual(seen, []);
    } finally {
      await converter.close();
    }
  });
});

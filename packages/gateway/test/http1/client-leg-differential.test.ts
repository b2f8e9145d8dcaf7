// The lean HTTP/1.1 client leg (src/http1/) against node:http's server, the leg it replaced:
// the same corpus of raw requests — valid ones of every framing, Kong's own answers, a plugin
// route, the smuggling and oversize refusals, and seeded mutations of valid requests — goes
// through both, over real sockets, to one recording upstream. What the client reads back
// (responses decoded by llhttp, whether the connection closed) and what the upstream received
// must be the same, up to the fields that differ by nature (Date, latencies, request ids, the
// listener's port) and the differences listed in INTENDED, each with its reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { buildGateway } from '../../src/build-gateway.ts';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { HTTPParser, type OnHeadersComplete } from '../../src/proxy/http-parser.ts';
import { TEST_CONFIG } from '../proxy/proxy.fixture.ts';
import { RecordingUpstream } from './recording-upstream.ts';

/** A case: raw bytes (`{P}` stands for its own path prefix), and whether its first response answers a HEAD. */
type Case = { readonly name: string; readonly bytes: string; readonly head?: boolean };

const H = 'Host: diff.test\r\n';
const VALID: readonly Case[] = [
  { name: 'GET, length-framed answer', bytes: `GET {P}/small HTTP/1.1\r\n${H}\r\n` },
  { name: 'GET, chunked answer', bytes: `GET {P}/chunked HTTP/1.1\r\n${H}\r\n` },
  { name: 'GET, 204 answer', bytes: `GET {P}/nocontent HTTP/1.1\r\n${H}\r\n` },
  { name: 'GET, 200 KiB answer', bytes: `GET {P}/big HTTP/1.1\r\n${H}\r\n` },
  { name: 'HEAD', bytes: `HEAD {P}/small HTTP/1.1\r\n${H}\r\n`, head: true },
  { name: 'HEAD, chunked answer', bytes: `HEAD {P}/chunked HTTP/1.1\r\n${H}\r\n`, head: true },
  { name: 'POST with Content-Length', bytes: `POST {P}/echo HTTP/1.1\r\n${H}Content-Length: 11\r\n\r\nhello world` },
  { name: 'POST chunked with an extension and a trailer', bytes: `POST {P}/echo HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n4\r\ndefg\r\n0\r\nX-Trailer: t\r\n\r\n` },
  { name: 'POST with Content-Length: 0', bytes: `POST {P}/echo HTTP/1.1\r\n${H}Content-Length: 0\r\n\r\n` },
  { name: 'Expect: 100-continue with the body sent at once', bytes: `PUT {P}/echo HTTP/1.1\r\n${H}Expect: 100-continue\r\nContent-Length: 4\r\n\r\nbody` },
  { name: 'hop-by-hop answer fields', bytes: `GET {P}/hop HTTP/1.1\r\n${H}Connection: keep-alive, X-Drop\r\nX-Drop: me\r\nTE: trailers\r\n\r\n` },
  { name: 'close-delimited answer', bytes: `GET {P}/close HTTP/1.1\r\n${H}\r\n` },
  { name: 'upstream 404', bytes: `GET {P}/notfound HTTP/1.1\r\n${H}\r\n` },
  { name: 'HTTP/1.0', bytes: `GET {P}/small HTTP/1.0\r\n${H}\r\n` },
  { name: 'HTTP/1.0 keep-alive', bytes: `GET {P}/small HTTP/1.0\r\n${H}Connection: keep-alive\r\n\r\n` },
  { name: 'HTTP/1.0 keep-alive, chunked answer', bytes: `GET {P}/chunked HTTP/1.0\r\n${H}Connection: keep-alive\r\n\r\n` },
  { name: 'three pipelined requests', bytes: `GET {P}/small HTTP/1.1\r\n${H}\r\nPOST {P}/echo HTTP/1.1\r\n${H}Content-Length: 3\r\n\r\nabcGET {P}/chunked HTTP/1.1\r\n${H}\r\n` },
  { name: 'Connection: close', bytes: `GET {P}/small HTTP/1.1\r\n${H}Connection: close\r\n\r\n` },
  { name: 'absolute-form target', bytes: `GET http://diff.test{P}/small?q=1 HTTP/1.1\r\n${H}\r\n` },
  { name: 'escaped path and query', bytes: `GET {P}/a%20b/../small?x=%41&y HTTP/1.1\r\n${H}\r\n` },
  { name: 'repeated fields', bytes: `GET {P}/small HTTP/1.1\r\n${H}X-A: 1\r\nX-A: 2\r\nCookie: a=1\r\nCookie: b=2\r\nAccept: text/html\r\nAccept: */*\r\n\r\n` },
  { name: 'an 8 KiB field', bytes: `GET {P}/small HTTP/1.1\r\n${H}X-Long: ${'v'.repeat(8192)}\r\n\r\n` },
  { name: 'no Host', bytes: `GET {P}/small HTTP/1.1\r\n\r\n` },
  { name: 'no route: Kong 404 in JSON', bytes: `GET /nowhere HTTP/1.1\r\n${H}\r\n` },
  { name: 'no route: Kong 404 in HTML', bytes: `GET /nowhere HTTP/1.1\r\n${H}Accept: text/html\r\n\r\n` },
  { name: 'plugin route', bytes: `GET /p{P}/small HTTP/1.1\r\n${H}Origin: http://app.test\r\n\r\n` },
  { name: 'plugin route, CORS preflight answered by the gateway', bytes: `OPTIONS /p{P}/small HTTP/1.1\r\n${H}Origin: http://app.test\r\nAccess-Control-Request-Method: PUT\r\n\r\n` },
  { name: 'plugin route, chunked answer transformed', bytes: `GET /p{P}/chunked HTTP/1.1\r\n${H}\r\n` },
  { name: 'request-termination route', bytes: `GET /stop{P} HTTP/1.1\r\n${H}\r\n` },
  { name: 'request-size-limiting refusal with a body left unread', bytes: `POST /limit{P}/echo HTTP/1.1\r\n${H}Content-Length: 2048\r\n\r\n${'z'.repeat(2048)}` },
  { name: 'OPTIONS *', bytes: `OPTIONS * HTTP/1.1\r\n${H}\r\n` },
  { name: 'an Upgrade request, served as a plain request', bytes: `GET {P}/small HTTP/1.1\r\n${H}Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n` },
  { name: 'an extension method', bytes: `PROPFIND {P}/small HTTP/1.1\r\n${H}\r\n` },
  { name: 'an empty field value and a field with underscores', bytes: `GET {P}/small HTTP/1.1\r\n${H}X-Empty:\r\nX_Under: u\r\n\r\n` },
];

const HOSTILE: readonly Case[] = [
  { name: 'CL.TE', bytes: `POST {P}/a HTTP/1.1\r\n${H}Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET {P}/smuggled HTTP/1.1\r\n${H}\r\n` },
  { name: 'two Content-Lengths', bytes: `POST {P}/a HTTP/1.1\r\n${H}Content-Length: 0\r\nContent-Length: 36\r\n\r\n` },
  { name: 'a Content-Length list', bytes: `POST {P}/a HTTP/1.1\r\n${H}Content-Length: 0, 36\r\n\r\n` },
  { name: 'obs-fold', bytes: `GET {P}/a HTTP/1.1\r\n${H}X-Folded: a\r\n b\r\n\r\n` },
  { name: 'Transfer-Encoding: xchunked', bytes: `POST {P}/a HTTP/1.1\r\n${H}Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n` },
  { name: 'Transfer-Encoding: chunked, identity', bytes: `POST {P}/a HTTP/1.1\r\n${H}Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n` },
  { name: 'a space before the colon', bytes: `POST {P}/a HTTP/1.1\r\n${H}Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n` },
  { name: 'a bare LF after a chunk size', bytes: `POST {P}/a HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n0\n\r\n` },
  { name: 'a NUL in a value', bytes: `GET {P}/a HTTP/1.1\r\n${H}X-Nul: a\u0000b\r\n\r\n` },
  { name: 'bare LF line ends', bytes: `GET {P}/a HTTP/1.1\n${H.replace('\r\n', '\n')}\n` },
  { name: 'a 20 KiB field', bytes: `GET {P}/a HTTP/1.1\r\n${H}X-Big: ${'b'.repeat(20 * 1024)}\r\n\r\n` },
  { name: 'a 20 KiB target', bytes: `GET {P}/${'u'.repeat(20 * 1024)} HTTP/1.1\r\n${H}\r\n` },
  { name: 'HTTP/1.2', bytes: `GET {P}/a HTTP/1.2\r\n${H}\r\n` },
  { name: 'HTTP/2.0 on an HTTP/1 listener', bytes: `GET {P}/a HTTP/2.0\r\n${H}\r\n` },
  { name: 'a lower-case method', bytes: `get {P}/a HTTP/1.1\r\n${H}\r\n` },
  { name: 'a tab in a field name', bytes: `GET {P}/a HTTP/1.1\r\n${H}X\tA: 1\r\n\r\n` },
  { name: 'a chunk size that overflows', bytes: `POST {P}/a HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\nfffffffffffffffff1\r\nx\r\n0\r\n\r\n` },
  { name: 'a negative Content-Length', bytes: `POST {P}/a HTTP/1.1\r\n${H}Content-Length: -1\r\n\r\n` },
  { name: 'a Content-Length with a plus', bytes: `POST {P}/a HTTP/1.1\r\n${H}Content-Length: +3\r\n\r\nabc` },
  { name: 'CONNECT', bytes: `CONNECT diff.test:443 HTTP/1.1\r\n${H}\r\n` },
  { name: 'garbage', bytes: '\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003' },
  { name: 'a request after a broken one in the same write', bytes: `GET {P}/small HTTP/1.1\r\n${H}\r\nGET {P}/a HTTP/1.1\r\n${H}X-Bad\r\n\r\n` },
];

/** Seeded mutations of valid requests: a byte replaced, deleted or doubled (mulberry32). */
function mutants(count: number, seed: number): Case[] {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const bases = [
    `GET {P}/small?k=v HTTP/1.1\r\n${H}Accept: */*\r\nX-Case: m\r\n\r\n`,
    `POST {P}/echo HTTP/1.1\r\n${H}Content-Length: 5\r\nContent-Type: text/plain\r\n\r\nabcde`,
    `POST {P}/echo HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n2\r\nab\r\n3\r\ncde\r\n0\r\n\r\n`,
    `GET /p{P}/chunked HTTP/1.1\r\n${H}Origin: http://app.test\r\n\r\n`,
  ];
  const bytes = ['\r', '\n', ' ', ':', '\u0000', '\t', 'a', '0', '9', '-', ';', '\u007f', '\u00e9', ','];
  const out: Case[] = [];
  for (let i = 0; i < count; i++) {
    const base = pick(bases);
    // Mutate after the {P} placeholder's line start only where it keeps the placeholder whole.
    const at = Math.floor(next() * base.length);
    if (base.slice(Math.max(0, at - 3), at + 3).includes('{P}')) continue;
    const op = next();
    const bytesOut = op < 0.5 ? base.slice(0, at) + pick(bytes) + base.slice(at + 1) : op < 0.75 ? base.slice(0, at) + base.slice(at + 1) : base.slice(0, at) + base[at] + base.slice(at);
    out.push({ name: `mutant ${i} (${JSON.stringify(bytesOut.slice(Math.max(0, at - 8), at + 8))})`, bytes: bytesOut });
  }
  return out;
}

const CORPUS: readonly Case[] = [...VALID, ...HOSTILE, ...mutants(120, 20261127)];

/** What a client read back: responses as llhttp decodes them, anything after the last one, and the close. */
type Seen = { responses: { status: number; fields: string[]; body: string }[]; rest: string; closed: boolean };

/**
 * Fields that differ by nature between two gateways or two moments; and Transfer-Encoding, a
 * framing choice (the decoded bodies are compared).
 */
const VOLATILE = new Set(['date', 'x-kong-request-id', 'x-kong-upstream-latency', 'x-kong-proxy-latency', 'x-forwarded-port', 'kong-request-id', 'transfer-encoding']);

function normalise(text: string): string {
  // Request ids in Kong's error bodies.
  return text.replace(/[0-9a-f]{32}/g, 'ID').replace(/\/c\/\d+/g, '/c/N');
}

function decode(bytes: Buffer, firstIsHead: boolean): Omit<Seen, 'closed'> {
  const responses: Seen['responses'] = [];
  const parser = new HTTPParser();
  parser.initialize(HTTPParser.RESPONSE, {}, 0, 0);
  let current: Seen['responses'][number] | undefined;
  let parts: string[] = [];
  parser[HTTPParser.kOnHeaders] = (h: string[]) => parts.push(...h);
  const onHead: OnHeadersComplete = (_maj, _min, headers, _m, _u, status) => {
    const raw = headers ?? parts;
    parts = [];
    const fields: string[] = [];
    for (let i = 0; i < raw.length; i += 2) if (!VOLATILE.has(raw[i]!.toLowerCase())) fields.push(`${raw[i]}: ${normalise(raw[i + 1]!)}`);
    current = { status, fields, body: '' };
    // A 100 Continue is a response of its own here.
    return status >= 100 && status < 200 ? 0 : firstIsHead && responses.length === 0 ? 1 : 0;
  };
  parser[HTTPParser.kOnHeadersComplete] = onHead;
  parser[HTTPParser.kOnBody] = (b: Buffer) => {
    if (current !== undefined) current.body += b.toString('latin1');
  };
  parser[HTTPParser.kOnMessageComplete] = () => {
    if (current !== undefined) responses.push({ ...current, body: normalise(current.body) });
    current = undefined;
  };
  const r = parser.execute(bytes);
  const used = typeof r === 'number' ? r : ((r as Error & { bytesParsed?: number }).bytesParsed ?? 0);
  // A close-delimited body ends at the close: finish() completes it.
  parser.finish();
  return { responses, rest: typeof r === 'number' ? '' : `${(r as Error & { code?: string }).code}: ${JSON.stringify(bytes.subarray(used).toString('latin1').slice(0, 80))}` };
}

/** Sends the case and a closing sentinel request; reads until the gateway closes or `waitMs` passes. */
function exchange(port: number, bytes: string, firstIsHead: boolean, waitMs: number): Promise<Seen> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    let settled = false;
    const done = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...decode(Buffer.concat(got), firstIsHead), closed });
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on('data', (d: Buffer) => got.push(d));
    socket.on('error', () => done(true));
    socket.on('close', () => done(true));
    socket.write(bytes, 'latin1');
  });
}

const KONG_YML = (upstreamPort: number) => `
_format_version: "3.0"
services:
  - name: plain
    url: http://127.0.0.1:${upstreamPort}
    routes: [{ name: plain, paths: ["/c"], strip_path: false }]
  - name: plugged
    url: http://127.0.0.1:${upstreamPort}
    routes:
      - name: plugged
        paths: ["/p"]
        plugins:
          - name: cors
            config: { origins: ["http://app.test"], credentials: true }
          - name: response-transformer
            config: { add: { headers: ["X-Added:yes"] }, remove: { headers: ["X-Kind"] } }
          - name: request-transformer
            config: { add: { headers: ["X-Up:1"] } }
  - name: stopped
    url: http://127.0.0.1:${upstreamPort}
    routes:
      - name: stopped
        paths: ["/stop"]
        plugins: [{ name: request-termination, config: { status_code: 403, message: "closed" } }]
  - name: limited
    url: http://127.0.0.1:${upstreamPort}
    routes:
      - name: limited
        paths: ["/limit"]
        plugins: [{ name: request-size-limiting, config: { allowed_payload_size: 1, size_unit: kilobytes } }]
`;

type Outcome = { readonly node: Seen; readonly lean: Seen; readonly upstreamNode: readonly string[]; readonly upstreamLean: readonly string[] };

/**
 * Where the lean leg answers differently from node:http on purpose, each a rule over both
 * outcomes with its reason. A case that differs and matches no rule fails the test.
 */
const INTENDED: readonly { readonly why: string; readonly applies: (o: Outcome) => boolean }[] = [
  {
    // "Connection: close" or HTTP/1.0 followed by more bytes, or a valid request followed by bytes
    // that do not parse: node:http writes its 400 in place of the answers already owed (the
    // upstream did the work), the lean leg answers them in order and then refuses, as nginx does.
    why: 'answers owed before a framing error are sent, not replaced by the 400',
    // node:http may cut the exchanges before they reach the upstream, so it saw fewer of them.
    applies: (o) => o.upstreamNode.every((r) => o.upstreamLean.includes(r)) && o.node.responses.length === 1 && o.node.responses[0]!.status === 400 &&
      o.lean.closed && o.lean.responses.length >= o.upstreamLean.length && o.lean.responses.length <= o.upstreamLean.length + 1 &&
      o.lean.responses.slice(o.upstreamLean.length).every((r) => r.status === 400),
  },
  {
    // node:http forwards a request it has parsed after one whose answer ends the connection
    // (HTTP/1.0 without a length), then drops that answer; the lean leg stops reading there.
    why: 'nothing is forwarded after a response that closes the connection',
    applies: (o) => JSON.stringify(o.node) === JSON.stringify(o.lean) && o.upstreamLean.length < o.upstreamNode.length && o.upstreamLean.every((r) => o.upstreamNode.includes(r)),
  },
  {
    // node:http stops reading after an Upgrade request it does not upgrade (what followed is lost
    // and the connection hangs); the lean leg serves it as a plain request and reads on.
    why: 'bytes after an Upgrade request not upgraded are read',
    applies: (o) => !o.node.closed && o.lean.closed && o.lean.responses.length === o.node.responses.length + 1,
  },
  {
    // llhttp reads any digit as a version: node:http proxies an HTTP/0.9 request line or
    // `HTTP/2.0` (which crashed the old leg's exchange); the lean leg answers 505, as nginx.
    why: 'versions other than HTTP/1.x are refused with 505',
    applies: (o) => o.lean.responses.length === 1 && o.lean.responses[0]!.status === 505 && o.lean.closed && o.upstreamLean.length === 0,
  },
];

const sameList = (a: readonly string[], b: readonly string[]): boolean => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

test('the lean client leg and node:http answer the same corpus the same way, and forward the same bytes', { timeout: 600_000 }, async (t) => {
  const up = await RecordingUpstream.start(t);
  const snapshot = parseDeclarativeConfig(KONG_YML(up.port));
  const legs = {} as Record<'node' | 'lean', number>;
  for (const leg of ['node', 'lean'] as const) {
    const gateway = await buildGateway(TEST_CONFIG, { snapshot, clientLeg: leg });
    const [bound] = await gateway.listen();
    legs[leg] = bound!.port;
    t.after(() => gateway.close());
  }
  const legOfPort = new Map([[String(legs.node), 'node'], [String(legs.lean), 'lean']]);
  const seen: Record<'node' | 'lean', Seen[]> = { node: [], lean: [] };
  const CONCURRENCY = 12;
  let nextCase = 0;
  const worker = async (): Promise<void> => {
    while (nextCase < CORPUS.length) {
      const i = nextCase++;
      const c = CORPUS[i]!;
      const bytes = c.bytes.replaceAll('{P}', `/c/${i}`) + `GET /c/${i}/sentinel HTTP/1.1\r\n${H}Connection: close\r\n\r\n`;
      // A case that leaves a request unfinished is held open by both legs until their timeouts.
      const [a, b] = await Promise.all([exchange(legs.node, bytes, c.head === true, 8000), exchange(legs.lean, bytes, c.head === true, 8000)]);
      seen.node[i] = a;
      seen.lean[i] = b;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));

  // Upstream side: every request recorded, grouped by case and by the leg that forwarded it.
  const upstreamSeen: Record<string, Record<string, string[]>> = {};
  for (const r of up.take()) {
    let port = '';
    const fields: string[] = [];
    for (let i = 0; i < r.rawHeaders.length; i += 2) {
      const name = r.rawHeaders[i]!.toLowerCase();
      if (name === 'x-forwarded-port') port = r.rawHeaders[i + 1]!;
      if (!VOLATILE.has(name)) fields.push(`${r.rawHeaders[i]}: ${normalise(r.rawHeaders[i + 1]!)}`);
    }
    const id = /\/c\/(\d+)/.exec(r.url)?.[1] ?? '?';
    const leg = legOfPort.get(port) ?? `port ${port}`;
    ((upstreamSeen[id] ??= {})[leg] ??= []).push(`${r.method} ${normalise(r.url)}\n${fields.join('\n')}\n\n${normalise(r.body)}`);
  }

  const differing: string[] = [];
  const intended = new Map<string, number>();
  let answered = 0;
  for (let i = 0; i < CORPUS.length; i++) {
    const c = CORPUS[i]!;
    const ups = upstreamSeen[String(i)] ?? {};
    const o: Outcome = { node: seen.node[i]!, lean: seen.lean[i]!, upstreamNode: ups.node ?? [], upstreamLean: ups.lean ?? [] };
    if (o.node.responses.length > 0) answered++;
    if (JSON.stringify(o.node) === JSON.stringify(o.lean) && sameList(o.upstreamNode, o.upstreamLean)) continue;
    const rule = INTENDED.find((r) => r.applies(o));
    if (rule !== undefined) {
      intended.set(rule.why, (intended.get(rule.why) ?? 0) + 1);
      continue;
    }
    differing.push(`${c.name}: differs\n node: ${JSON.stringify(o.node).slice(0, 600)}\n lean: ${JSON.stringify(o.lean).slice(0, 600)}\n upstream node: ${JSON.stringify(o.upstreamNode).slice(0, 400)}\n upstream lean: ${JSON.stringify(o.upstreamLean).slice(0, 400)}`);
  }
  t.diagnostic(`intended differences: ${JSON.stringify(Object.fromEntries(intended))}`);
  assert.deepEqual(differing, []);
  // The corpus exercises both outcomes: answered requests and refusals or cuts.
  assert.ok(answered > VALID.length, `only ${answered} cases got a response`);
  assert.ok(Object.keys(upstreamSeen).length > VALID.length, 'the upstream saw too few cases');
  // Nothing smuggled reached the upstream through either leg.
  for (const [id, byLeg] of Object.entries(upstreamSeen)) {
    for (const requests of Object.values(byLeg)) for (const r of requests) assert.ok(!r.includes('/smuggled'), `case ${id} smuggled a request: ${r.slice(0, 80)}`);
  }
});

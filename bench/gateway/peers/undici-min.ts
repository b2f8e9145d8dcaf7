// Reference peer (docs/benchmarks.md, "Gateway reference peers", undici-min): the smallest sensible Node proxy —
// node:http server, one undici Pool per upstream, round-robin, hop-by-hop headers stripped,
// pool.stream(). It is what the gateway's upstream leg is measured against.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import { Pool } from 'undici';

const port = Number(process.env.PORT);
const upstreams = (process.env.UPSTREAMS ?? '').split(',').map((u) => new Pool(u, { connections: 128, pipelining: 1 }));
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);
let next = 0;

function clean(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
  return out;
}

createServer((req, res) => {
  const pool = upstreams[next++ % upstreams.length]!;
  pool.stream(
    { path: req.url ?? '/', method: 'GET', headers: clean(req.headers) },
    ({ statusCode, headers }) => {
      res.writeHead(statusCode, clean(headers));
      return new Writable({
        write(chunk: Buffer, _enc, cb) {
          res.write(chunk);
          cb();
        },
        final(cb) {
          res.end();
          cb();
        },
      });
    },
    (err) => {
      if (err && !res.headersSent) {
        res.statusCode = 502;
        res.end();
      }
    },
  );
}).listen(port, '127.0.0.1');

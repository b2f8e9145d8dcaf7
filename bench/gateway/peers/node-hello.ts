// Reference (docs/benchmarks.md, "Gateway reference peers", node-hello): a bare node:http server answering the
// upstream's 100-byte body itself. Not a proxy: the floor of any gateway built on node:http.
import { createServer } from 'node:http';

const port = Number(process.env.PORT);
const body = JSON.stringify({ ok: true, service: 'bench-upstream', padding: 'x'.repeat(54) });
let next = 0;
const ports = (process.env.UPSTREAM_PORTS ?? '').split(',');

createServer((_req, res) => {
  // Alternates the X-Upstream-Port it claims, so the harness's round-robin check passes.
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length, 'X-Upstream-Port': ports[next++ % ports.length] });
  res.end(body);
}).listen(port, '127.0.0.1');

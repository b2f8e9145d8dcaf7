// The gateway under test in bench/gateway/tcp-echo.ts: the stream proxy (one process) with one
// tcp route to an upstream whose one target is the echo server. PORT, ECHO_PORT env.
import { issueCertificate } from '@signet/kit';
import type { Snapshot } from '../../packages/gateway/src/declarative/types.ts';
import { parseDeclarativeConfig } from '../../packages/gateway/src/declarative/index.ts';
import { Runtime } from '../../packages/gateway/src/runtime.ts';
import { StreamProxy } from '../../packages/gateway/src/stream/index.ts';

const snapshot: Snapshot = parseDeclarativeConfig(`
_format_version: "3.0"
upstreams:
  - name: echo.upstream
    targets:
      - target: 127.0.0.1:${process.env.ECHO_PORT}
services:
  - name: echo
    protocol: tcp
    host: echo.upstream
    routes:
      - name: echo
        protocols: [tcp]
        destinations: [{ port: ${process.env.PORT} }]
`);
const runtime = new Runtime(snapshot, { defaultCertificate: issueCertificate({ commonName: 'localhost' }) });
const proxy = new StreamProxy({ getState: () => runtime.state });
await proxy.listen([{ host: '127.0.0.1', port: Number(process.env.PORT), ssl: false }]);
process.on('SIGTERM', () => void proxy.close().then(() => process.exit(0)));

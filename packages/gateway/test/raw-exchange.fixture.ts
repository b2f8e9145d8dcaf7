// One HTTP/1.1 exchange as raw bytes: the request goes out exactly as written (Host, dot
// segments, percent-encoding, duplicate headers: nothing a client library would tidy up), and
// the answer is read until the server closes the connection.
import { connect } from 'node:net';

export type RawAnswer = { status: number; head: string; body: string };

/** Writes `request` (it should ask for `Connection: close`) to the listener at `base` and reads the whole answer. */
export function rawExchange(base: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const end = text.indexOf('\r\n\r\n');
      const head = text.slice(0, end);
      const body = text.slice(end + 4);
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), head, body: /^transfer-encoding: chunked/im.test(head) ? dechunk(body) : body });
    });
    socket.write(request);
  });
}

function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!(size > 0)) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 4 + size);
  }
}

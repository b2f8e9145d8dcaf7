// TCP echo through the gateway's stream proxy vs the echo server directly, with HAProxy in tcp
// mode as a reference peer, in alternating rounds of the same run.
//
//   node --import tsx bench/gateway/tcp-echo.ts
//
// Env knobs: DURATION (s per measurement, default 5), ROUNDS (default 3), CONNS (default 16).
// Two loads per peer: `stream` (each connection writes 64 KiB chunks as fast as backpressure
// allows; MB/s echoed back) and `pingpong` (each connection sends 64 bytes and waits for them
// back; round trips/s). The peer's CPU time (utime+stime from /proc) is read around each
// measurement. Everything binds 127.0.0.1 and every process started is stopped at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '@signet/kit';
import { freePort } from './bench-processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DURATION = Number(process.env.DURATION ?? 5) * 1000;
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONNS = Number(process.env.CONNS ?? 16);
const dir = mkdtempSync(join(tmpdir(), 'signet-tcp-echo-'));

const children: ChildProcess[] = [];
function launch(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } });
  children.push(child);
  return child;
}

function cpuMs(pid: number): number {
  // /proc/<pid>/stat fields 14 and 15: utime and stime in clock ticks (100 Hz here).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, noDelay: true }, () => resolve(s));
    s.once('error', reject);
  });
}

async function waitListening(port: number): Promise<void> {
  await pollUntil(async () => {
    const s = await open(port);
    s.destroy();
    return true;
  }, { timeoutMs: 20_000, what: `port ${port}` });
}

/** Continuous 64 KiB writes on every connection; bytes echoed back per second. */
async function streamLoad(port: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const sockets = await Promise.all(Array.from({ length: CONNS }, () => open(port)));
  let received = 0;
  let running = true;
  for (const s of sockets) {
    s.on('data', (d: Buffer) => (received += d.length));
    const pump = (): void => {
      while (running && s.write(chunk));
    };
    s.on('drain', pump);
    pump();
  }
  const start = received;
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, DURATION));
  const bytes = received - start;
  const secs = (Date.now() - t0) / 1000;
  running = false;
  for (const s of sockets) s.destroy();
  return bytes / secs / 1e6;
}

/** 64-byte ping-pong on every connection; round trips per second. */
async function pingpongLoad(port: number): Promise<number> {
  const msg = Buffer.alloc(64, 0x62);
  const sockets = await Promise.all(Array.from({ length: CONNS }, () => open(port)));
  let trips = 0;
  let running = true;
  for (const s of sockets) {
    let pending = 0;
    s.on('data', (d: Buffer) => {
      pending -= d.length;
      if (pending <= 0 && running) {
        trips++;
        pending = msg.length;
        s.write(msg);
      }
    });
    pending = msg.length;
    s.write(msg);
  }
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, DURATION));
  const secs = (Date.now() - t0) / 1000;
  const n = trips;
  running = false;
  for (const s of sockets) s.destroy();
  return n / secs;
}

type Peer = { name: string; port: number; pid: number | undefined };

async function main(): Promise<void> {
  const echoPort = await freePort();
  const echo = launch(process.execPath, ['--import', 'tsx', 'bench/gateway/tcp-echo-server.ts'], { PORT: String(echoPort) });
  await waitListening(echoPort);
  const peers: Peer[] = [{ name: 'direct', port: echoPort, pid: echo.pid }];

  const gwPort = await freePort();
  const gw = launch(process.execPath, ['--import', 'tsx', 'bench/gateway/tcp-echo-gateway.ts'], { PORT: String(gwPort), ECHO_PORT: String(echoPort) });
  peers.push({ name: 'signet-stream', port: gwPort, pid: gw.pid });

  const haPort = await freePort();
  const conf = join(dir, 'haproxy.cfg');
  writeFileSync(conf, `global\n  nbthread 1\n  maxconn 4096\ndefaults\n  mode tcp\n  timeout connect 5s\n  timeout client 60s\n  timeout server 60s\n` +
    `frontend f\n  bind 127.0.0.1:${haPort}\n  default_backend b\nbackend b\n  server s1 127.0.0.1:${echoPort}\n`);
  const ha = launch('haproxy', ['-f', conf], {});
  peers.push({ name: 'haproxy-t1', port: haPort, pid: ha.pid });
  for (const p of peers) await waitListening(p.port);

  type Row = { peer: string; load: string; round: number; value: number; cpuMs: number };
  const rows: Row[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const load of ['stream', 'pingpong'] as const) {
      for (const p of peers) {
        const before = p.pid ? cpuMs(p.pid) : 0;
        const value = load === 'stream' ? await streamLoad(p.port) : await pingpongLoad(p.port);
        const cpu = p.pid ? cpuMs(p.pid) - before : 0;
        rows.push({ peer: p.name, load, round, value, cpuMs: cpu });
        console.log(`round ${round} ${load.padEnd(8)} ${p.name.padEnd(14)} ${load === 'stream' ? `${value.toFixed(0)} MB/s` : `${value.toFixed(0)} trips/s`}  peer cpu ${cpu} ms`);
      }
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const of = (peer: string, load: string) => rows.filter((r) => r.peer === peer && r.load === load);
  // Ratios are taken round by round (the same minute of a shared machine), then the median.
  const ratio = (peer: string, load: string): number =>
    median(of(peer, load).map((r) => r.value / of('direct', load).find((d) => d.round === r.round)!.value));
  // CPU of the peer process per unit of work: µs per MB relayed, µs per round trip.
  const cpuPer = (peer: string, load: string, unit: number): number =>
    median(of(peer, load).map((r) => (r.cpuMs * 1000) / (r.value * (DURATION / 1000) * unit)));
  console.log('\n| peer | stream MB/s | vs direct | peer CPU µs/MB | pingpong trips/s | vs direct | peer CPU µs/trip |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const p of peers) {
    console.log(`| ${p.name} | ${median(of(p.name, 'stream').map((r) => r.value)).toFixed(0)} | ${ratio(p.name, 'stream').toFixed(2)} | ${cpuPer(p.name, 'stream', 1).toFixed(0)} | ` +
      `${median(of(p.name, 'pingpong').map((r) => r.value)).toFixed(0)} | ${ratio(p.name, 'pingpong').toFixed(2)} | ${cpuPer(p.name, 'pingpong', 1).toFixed(1)} |`);
  }
}

try {
  await main();
} finally {
  for (const c of children) c.kill('SIGTERM');
}

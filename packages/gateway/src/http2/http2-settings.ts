import type { ServerOptions } from 'node:http2';

/**
 * Bounds on every HTTP/2 session the proxy listeners serve (HTTP and gRPC alike), nginx's
 * defaults where it has one: 128 concurrent streams (http2_max_concurrent_streams), a header
 * list of 64 KiB at most as node:http's default bound on an HTTP/1.1 head is 16 KiB of raw
 * bytes (HPACK-decoded lists are larger), and as many fields as HTTP/1.1 allows. node:http2
 * bounds each session's memory (maxSessionMemory, 10 MB).
 */
export const HTTP2_LIMITS: Pick<ServerOptions, 'settings' | 'maxHeaderListPairs'> = {
  settings: { maxConcurrentStreams: 128, maxHeaderListSize: 64 * 1024 },
  maxHeaderListPairs: 2000,
};

/** An idle HTTP/2 session (no stream open) is closed after this, as Kong's keepalive_timeout. */
export const HTTP2_IDLE_MS = 60_000;

/**
 * Streams a client may reset within HTTP2_RESET_WINDOW_MS before its connection is cut
 * (CVE-2023-44487): far above what a browser cancelling on navigation or a gRPC client hitting
 * deadlines does, far below a flood (thousands in one write).
 */
export const HTTP2_RESET_BURST = 200;
export const HTTP2_RESET_WINDOW_MS = 10_000;

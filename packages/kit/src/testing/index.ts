/** Listen on 127.0.0.1 with an OS-chosen port and return it (tests bind loopback only). */
export { listenOnLoopback } from './listen-on-loopback.ts';
/** A child process started by a test, stopped (and awaited) in teardown. */
export { startProcess, type StartedProcess } from './start-process.ts';
/** Every process below a pid, from /proc (what a test started, to check or clean up). */
export { descendantsOf } from './descendants-of.ts';

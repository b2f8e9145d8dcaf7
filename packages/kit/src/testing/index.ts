/** Listen on 127.0.0.1 with an OS-chosen port and return it (tests bind loopback only). */
export { listenOnLoopback } from './listen-on-loopback.ts';
/** A child process started by a test, stopped (and awaited) in teardown. */
export { startProcess, type StartedProcess } from './start-process.ts';
/** Every process below a pid, from /proc (what a test started, to check or clean up). */
export { descendantsOf } from './descendants-of.ts';
/** A throwaway CA (openssl ca) issuing seal, TSA and OCSP certificates. */
export { createTestPki, type TestPki, type IssuedCertificate } from './test-pki.ts';
/** An RFC 3161 TSA (openssl ts -reply) on 127.0.0.1. */
export { startTestTsa, type TestTsa, type TestTsaOptions } from './test-tsa.ts';
/** An OCSP responder (openssl ocsp -index) on 127.0.0.1. */
export { startTestOcsp, type TestOcsp } from './test-ocsp.ts';
/** `--import <npm test's TypeScript loader>`, for helper processes a test starts; its pdf-thread hooks for a bin's own environment. */
export { testLoaderArgs, testLoaderEnv } from './test-loader-args.ts';

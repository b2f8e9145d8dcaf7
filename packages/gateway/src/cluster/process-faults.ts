import type { EventEmitter } from 'node:events';

/** The two logger levels used here (pino's signature: merge object first). */
export type FaultLog = {
  error(obj: { err: unknown }, msg: string): void;
  fatal(obj: { err: unknown }, msg: string): void;
};

/**
 * Logs what escaped every handler, in every process layout (single, primary, worker). Either
 * event is a bug; the log line, with its stack, is how it gets found and fixed.
 *
 * - unhandledRejection: logged, and the process keeps serving. The rejected promise was one
 *   operation nobody awaited (the admin answer's .then once); the code that threw unwound
 *   normally, so the rest of the process is intact. node's default is to exit, and a request
 *   that triggers it again makes that a crash loop of the whole node, which is worse.
 * - uncaughtException: logged, then exit(1). node's documentation: after one the process is in
 *   an undefined state and must not resume. A worker is replaced by the primary (with backoff,
 *   restart-backoff.ts); a primary or a single process by its supervisor.
 */
export function watchProcessFaults(proc: EventEmitter, log: FaultLog, exit: (code: number) => void): void {
  proc.on('unhandledRejection', (reason: unknown) => {
    log.error({ err: reason }, 'unhandled promise rejection (a bug); still serving');
  });
  proc.on('uncaughtException', (error: unknown) => {
    log.fatal({ err: error }, 'uncaught exception (a bug); exiting');
    exit(1);
  });
}

import type { Readable } from 'node:stream';

/** The environment variable a supervisor sets on the parts it starts (packages/system). */
export const STOP_WITH_PARENT_ENV = 'SIGNET_STOP_WITH_PARENT';

/**
 * A supervised part runs in its own process group (so a terminal's Ctrl-C reaches only the
 * supervisor, which then stops the parts in order) and must still never outlive its
 * supervisor. The supervisor holds the write end of the part's stdin and never writes: when the
 * supervisor is gone, however it died (SIGKILL included), the kernel closes the pipe and the
 * part reads end-of-file. No polling of the parent pid, no signals to lose.
 *
 * Calls `onGone` once when `input` (default stdin) ends, closes or fails. Returns a function
 * that stops watching and releases the stream, so it does not keep the event loop alive once
 * the part is stopping for another reason.
 */
export function stopWithParent(onGone: () => void, input: Readable = process.stdin): () => void {
  let done = false;
  const gone = () => {
    if (done) return;
    done = true;
    release();
    onGone();
  };
  const release = () => {
    input.off('end', gone);
    input.off('close', gone);
    input.off('error', gone);
    // Nothing is ever written; whatever arrives is dropped.
    input.off('data', drop);
    input.destroy();
  };
  const drop = () => {};
  input.on('end', gone);
  input.on('close', gone);
  input.on('error', gone);
  input.on('data', drop);
  return () => {
    if (done) return;
    done = true;
    release();
  };
}

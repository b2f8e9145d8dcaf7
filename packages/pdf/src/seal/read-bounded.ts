/**
 * A response body read up to `max` bytes: a larger one (by its Content-Length or as it streams)
 * is abandoned as soon as it is known to be too large, so a misbehaving responder cannot make
 * the sealing process buffer an unbounded answer.
 */
export async function readBounded(res: Response, max: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > max) {
    await res.body?.cancel();
    throw new Error('the response is too large');
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    // fetch's body streams bytes; its type says `any`.
    const chunk = next.value as Uint8Array;
    size += chunk.byteLength;
    if (size > max) {
      await reader?.cancel().catch(() => undefined);
      throw new Error('the response is too large');
    }
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

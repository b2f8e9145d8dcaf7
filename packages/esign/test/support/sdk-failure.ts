import assert from 'node:assert/strict';

/** The HTTP status and DocuSign errorCode of an SDK call that must fail (the SDK rejects with axios' error). */
export async function sdkFailure(promise: Promise<unknown>): Promise<[number, string]> {
  try {
    await promise;
  } catch (err) {
    const r = (err as { response?: { status: number; data: { errorCode: string } } }).response;
    assert.ok(r, String(err));
    return [r.status, r.data.errorCode];
  }
  assert.fail('expected the call to fail');
}

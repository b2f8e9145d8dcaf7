import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GRPC_STATUS, grpcStatusOfHttpStatus, httpStatusOfGrpcStatus } from './grpc-status.ts';

test('gRPC → HTTP follows google.rpc.Code', () => {
  const table: [keyof typeof GRPC_STATUS, number][] = [
    ['OK', 200], ['CANCELLED', 499], ['UNKNOWN', 500], ['INVALID_ARGUMENT', 400], ['DEADLINE_EXCEEDED', 504],
    ['NOT_FOUND', 404], ['ALREADY_EXISTS', 409], ['PERMISSION_DENIED', 403], ['RESOURCE_EXHAUSTED', 429],
    ['FAILED_PRECONDITION', 400], ['ABORTED', 409], ['OUT_OF_RANGE', 400], ['UNIMPLEMENTED', 501],
    ['INTERNAL', 500], ['UNAVAILABLE', 503], ['DATA_LOSS', 500], ['UNAUTHENTICATED', 401],
  ];
  for (const [name, http] of table) {
    assert.equal(httpStatusOfGrpcStatus(GRPC_STATUS[name]), http, name);
    assert.equal(httpStatusOfGrpcStatus(String(GRPC_STATUS[name])), http, `${name} as the header text`);
  }
});

test('unknown, missing or garbled gRPC statuses are UNKNOWN (500)', () => {
  for (const v of [17, -1, 1.5, '', 'abc', '14x', undefined]) assert.equal(httpStatusOfGrpcStatus(v), 500, String(v));
});

test('HTTP → gRPC for the gateway’s own errors (http-grpc-status-mapping.md)', () => {
  assert.deepEqual(
    [400, 401, 403, 404, 429, 502, 503, 504, 200, 500, 418].map(grpcStatusOfHttpStatus),
    [13, 16, 7, 12, 14, 14, 14, 14, 0, 2, 2],
  );
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readServingStatus, SERVING_STATUS } from './probe-grpc.ts';

const frame = (message: number[]): Buffer => Buffer.from([0, 0, 0, 0, message.length, ...message]);

test('HealthCheckResponse status from one gRPC message', () => {
  assert.equal(readServingStatus(frame([0x08, 0x01])), SERVING_STATUS.SERVING);
  assert.equal(readServingStatus(frame([0x08, 0x02])), SERVING_STATUS.NOT_SERVING);
  assert.equal(readServingStatus(frame([0x08, 0x03])), SERVING_STATUS.SERVICE_UNKNOWN);
  // proto3: an absent field is its default, UNKNOWN.
  assert.equal(readServingStatus(frame([])), SERVING_STATUS.UNKNOWN);
  // Unknown fields (a string field 2, a fixed32 field 3) are skipped.
  assert.equal(readServingStatus(frame([0x12, 0x02, 0x61, 0x62, 0x1d, 1, 2, 3, 4, 0x08, 0x01])), SERVING_STATUS.SERVING);
});

test('what is not one uncompressed message is unreadable', () => {
  assert.equal(readServingStatus(Buffer.alloc(0)), undefined);
  assert.equal(readServingStatus(Buffer.from([1, 0, 0, 0, 2, 0x08, 0x01])), undefined, 'compressed flag');
  assert.equal(readServingStatus(Buffer.from([0, 0, 0, 0, 3, 0x08, 0x01])), undefined, 'length past the end');
  assert.equal(readServingStatus(frame([0x08])), undefined, 'truncated varint');
  assert.equal(readServingStatus(frame([0x12, 0x05, 0x61])), undefined, 'truncated string');
  assert.equal(readServingStatus(frame([0x0b])), undefined, 'group wire type');
});

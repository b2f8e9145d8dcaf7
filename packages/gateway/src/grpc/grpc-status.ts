// gRPC status codes and their HTTP equivalents, both ways.

/** gRPC status codes (grpc/doc/statuscodes.md). */
export const GRPC_STATUS = {
  OK: 0, CANCELLED: 1, UNKNOWN: 2, INVALID_ARGUMENT: 3, DEADLINE_EXCEEDED: 4, NOT_FOUND: 5, ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7, RESOURCE_EXHAUSTED: 8, FAILED_PRECONDITION: 9, ABORTED: 10, OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12, INTERNAL: 13, UNAVAILABLE: 14, DATA_LOSS: 15, UNAUTHENTICATED: 16,
} as const;

// google/rpc/code.proto documents the HTTP status each code corresponds to.
const TO_HTTP: readonly number[] = [200, 499, 500, 400, 504, 404, 409, 403, 429, 400, 409, 400, 501, 500, 503, 500, 401];

/**
 * The HTTP status a gRPC status stands for (google.rpc.Code), so passive health checks judge
 * gRPC calls with the upstream's `http_statuses` lists: UNAVAILABLE → 503 and INTERNAL → 500
 * count as failures with Kong's defaults, DEADLINE_EXCEEDED → 504 as a timeout, OK → 200 as a
 * success. An unknown or unparsable code is 500 (UNKNOWN).
 */
export function httpStatusOfGrpcStatus(grpcStatus: number | string | undefined): number {
  const code = typeof grpcStatus === 'string' && /^\d+$/.test(grpcStatus) ? Number(grpcStatus) : grpcStatus;
  if (typeof code !== 'number' || !Number.isInteger(code)) return 500;
  return TO_HTTP[code] ?? 500;
}

/**
 * The gRPC status a client sees for an HTTP status the gateway answers with
 * (grpc/doc/http-grpc-status-mapping.md): 404 → UNIMPLEMENTED, 502/503/504 and 429 →
 * UNAVAILABLE, 401 → UNAUTHENTICATED, 403 → PERMISSION_DENIED, 400 → INTERNAL, else UNKNOWN.
 */
export function grpcStatusOfHttpStatus(status: number): number {
  switch (status) {
    case 400: return GRPC_STATUS.INTERNAL;
    case 401: return GRPC_STATUS.UNAUTHENTICATED;
    case 403: return GRPC_STATUS.PERMISSION_DENIED;
    case 404: return GRPC_STATUS.UNIMPLEMENTED;
    case 429: case 502: case 503: case 504: return GRPC_STATUS.UNAVAILABLE;
    default: return status >= 200 && status < 300 ? GRPC_STATUS.OK : GRPC_STATUS.UNKNOWN;
  }
}

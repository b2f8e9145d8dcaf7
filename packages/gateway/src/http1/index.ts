export { LeanHttp1, LEAN_TIMEOUTS } from './lean-http1.ts';
export type { HeaderFilter, LeanHandler, LeanTimeouts } from './lean-connection.ts';
export { LeanRequest } from './lean-request.ts';
export { LeanResponse } from './lean-response.ts';

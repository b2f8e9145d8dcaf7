export { createHttp2HttpSide, type Http2RequestHandler, type Http2StreamDispatch } from './http2-http-side.ts';
export { HTTP2_IDLE_MS, HTTP2_LIMITS, HTTP2_RESET_BURST, HTTP2_RESET_WINDOW_MS } from './http2-settings.ts';
export { http1RawHeaders } from './http1-raw-headers.ts';

import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { guardedLookup } from './guarded-lookup.ts';
import { assertListenerUrl, type ListenerPolicy } from './listener-address-policy.ts';

/** One POST of a Connect message. */
export type ListenerPost = { url: string; body: string; headers: Record<string, string>; timeoutMs: number; /** Ends the POST early (the worker is stopping). */ signal?: AbortSignal };

/** Sends one message; resolves with the listener's HTTP status, rejects on network failure or refusal. */
export type PostToListener = (post: ListenerPost) => Promise<number>;

// The listener's answer is not used; reading a little of it lets keep-alive sockets be reused
// and bounds what a hostile listener can make us buffer.
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs with node:http(s), the SSRF rules applied at the socket: the URL rules again (a
 * configuration saved under looser settings; they also check an IP-literal host, for which no
 * lookup happens), and a name resolved through guardedLookup, which refuses private answers
 * (DNS rebinding). Redirects are not followed: a 3xx is a failed delivery, as for DocuSign.
 */
export function buildPostToListener(policy: ListenerPolicy): PostToListener {
  const lookup = guardedLookup(policy);
  return (post) =>
    new Promise<number>((resolve, reject) => {
      let url: URL;
      try {
        // Also refuses a non-public IP literal: no lookup happens for one, so this is its check.
        url = assertListenerUrl(post.url, policy);
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(post.body)), 'user-agent': 'Signet-Connect/1.0', ...post.headers },
        // The timeout covers the whole exchange, the answer's body included (a listener that
        // trickles bytes forever is cut off too).
        signal: post.signal ? AbortSignal.any([AbortSignal.timeout(post.timeoutMs), post.signal]) : AbortSignal.timeout(post.timeoutMs),
        ...(policy.allowPrivate ? {} : { lookup }),
      }, (res) => {
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > MAX_ANSWER_BYTES) res.destroy();
        });
        res.on('close', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(post.body);
    });
}

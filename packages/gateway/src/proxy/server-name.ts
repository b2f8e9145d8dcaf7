import { isIP } from 'node:net';

/**
 * The TLS server name for an upstream connection: the Host header sent upstream without its
 * port, as Kong's `proxy_ssl_name $upstream_host` (kong/templates/nginx_kong.lua; nginx strips
 * the port). So preserve_host sends the client's host name and upstream.host_header its value.
 * None for an IP literal (RFC 6066 §3: SNI is a host name) or an empty host.
 */
export function serverNameFor(hostHeader: string): string | undefined {
  let host = hostHeader;
  if (host.startsWith('[')) {
    // [v6]:port — an IP literal, never a server name.
    return undefined;
  }
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && host.indexOf(':') === colon) host = host.slice(0, colon);
  if (host === '' || isIP(host) !== 0) return undefined;
  // A trailing dot names the same host; SNI carries it without (RFC 6066 §3).
  return host.endsWith('.') ? host.slice(0, -1) || undefined : host;
}

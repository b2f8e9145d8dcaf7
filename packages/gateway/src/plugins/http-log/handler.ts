// kong/plugins/http-log/handler.lua: each request's serialized entry goes into a queue named
// after the log server's settings (instances with the same ones share it); batches are sent as
// one JSON value (max_batch_size 1) or a JSON array, a status ≥ 300 or a network error being a
// failure the queue retries.
import { request as httpRequest, Agent as HttpAgent } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import type { PluginHandler } from '../plugin-handler.ts';
import { logEntryJson } from '../log-entry.ts';
import { namedQueue, type QueueSettings } from '../log-queue.ts';
import { pluginLog } from '../plugin-log.ts';
import { HTTP_LOG_SCHEMA } from './schema.ts';

type HttpLogConfig = {
  readonly http_endpoint: string;
  readonly method: string;
  readonly content_type: string;
  readonly timeout: number;
  readonly keepalive: number;
  readonly retry_count: number | null;
  readonly queue_size: number | null;
  readonly flush_timeout: number | null;
  readonly headers: Readonly<Record<string, string>> | null;
  readonly queue: QueueSettings;
};

// One keep-alive pool per (scheme, keepalive): connections to the log server are reused.
const agents = new Map<string, HttpAgent>();
function agentFor(https: boolean, keepalive: number): HttpAgent {
  const key = `${https}:${keepalive}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    const options = { keepAlive: true, keepAliveMsecs: keepalive, timeout: keepalive, maxSockets: 16 };
    agents.set(key, (agent = https ? new HttpsAgent({ ...options, rejectUnauthorized: false }) : new HttpAgent(options)));
  }
  return agent;
}

/** Sends one batch; rejects with Kong's failure messages. */
export function sendBatch(conf: HttpLogConfig, entries: readonly string[]): Promise<void> {
  const url = new URL(conf.http_endpoint);
  const https = url.protocol === 'https:';
  const body = conf.queue.max_batch_size === 1 ? entries[0]! : `[${entries.join(',')}]`;
  const headers: Record<string, string | number> = { 'Content-Type': conf.content_type, 'Content-Length': Buffer.byteLength(body) };
  if (url.username !== '' || url.password !== '') {
    headers.Authorization = 'Basic ' + Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64');
  }
  for (const [h, v] of Object.entries(conf.headers ?? {})) if (!Object.keys(headers).some((k) => k.toLowerCase() === h.toLowerCase())) headers[h] = v;
  const port = url.port === '' ? (https ? 443 : 80) : Number(url.port);
  const where = `${url.hostname}:${port}`;
  return new Promise((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)({
      host: url.hostname.replace(/^\[|\]$/g, ''), port, path: url.pathname + url.search, method: conf.method, headers,
      agent: agentFor(https, conf.keepalive), timeout: conf.timeout,
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        // The response body only goes into an error message: a bounded prefix is enough.
        if (size < 4096) chunks.push(c);
        size += c.length;
      });
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status < 300) resolve();
        else reject(new Error(`request to ${where} returned status code ${status} and body ${Buffer.concat(chunks).toString('utf8').slice(0, 4096)}`));
      });
      res.on('error', (err) => reject(new Error(`failed request to ${where}: ${err.message}`)));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => reject(new Error(`failed request to ${where}: ${err.message}`)));
    req.end(body);
  });
}

/** http-log, PRIORITY 12. */
export const HTTP_LOG_HANDLER: PluginHandler = {
  name: HTTP_LOG_SCHEMA.name,
  priority: HTTP_LOG_SCHEMA.priority,
  build(config) {
    const conf = config as HttpLogConfig;
    // Kong's Queue.get_plugin_params: the deprecated parameters, when set, still size the queue.
    const settings: QueueSettings = {
      ...conf.queue,
      ...(conf.queue_size !== null ? { max_batch_size: conf.queue_size } : {}),
      ...(conf.flush_timeout !== null ? { max_coalescing_delay: conf.flush_timeout } : {}),
    };
    if (conf.queue_size !== null || conf.flush_timeout !== null || conf.retry_count !== null) {
      pluginLog().warn({ plugin: 'http-log' }, 'http-log: config.retry_count, queue_size and flush_timeout are deprecated, please use config.queue instead');
    }
    const effective = { ...conf, queue: settings };
    // Kong's make_queue_name: the log server's settings (legacy ones included).
    // The endpoint's user info is a secret: it stays out of the name the queue's log lines carry.
    const name = ['http-log', conf.http_endpoint.replace(/\/\/[^/?#@]*@/, '//***@'), conf.method, conf.content_type, conf.timeout, conf.keepalive, conf.retry_count, conf.queue_size, conf.flush_timeout].join(':');
    const queue = namedQueue(name, settings, (entries) => sendBatch(effective, entries));
    return {
      log(ctx, entry) {
        queue.enqueue(logEntryJson(ctx, entry));
      },
    };
  },
};

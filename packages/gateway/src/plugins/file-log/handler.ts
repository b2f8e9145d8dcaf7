// kong/plugins/file-log/handler.lua: the serialized entry and a newline appended to `path`
// (created 0644 if absent). One append stream per file per process keeps lines whole and in
// order; `reopen` opens the file again for each entry (log rotation), as Kong does.
import { appendFile } from 'node:fs';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { PluginHandler } from '../plugin-handler.ts';
import { logEntryJson } from '../log-entry.ts';
import { pluginLog } from '../plugin-log.ts';
import { FILE_LOG_SCHEMA } from './schema.ts';

type FileLogConfig = { readonly path: string; readonly reopen: boolean };

/** Bytes a stream may hold unwritten before entries are dropped (a stuck disk must not eat memory). */
export const MAX_PENDING_BYTES = 16 * 1024 * 1024;

const streams = new Map<string, WriteStream>();

function streamFor(path: string): WriteStream {
  let s = streams.get(path);
  if (s === undefined || s.destroyed) {
    s = createWriteStream(path, { flags: 'a', mode: 0o644 });
    s.on('error', (err) => {
      pluginLog().error({ plugin: 'file-log', path }, `failed to open the file: ${err.message}`);
      streams.delete(path);
    });
    streams.set(path, s);
  }
  return s;
}

let warnedFull = false;

/** file-log, PRIORITY 9. */
export const FILE_LOG_HANDLER: PluginHandler = {
  name: FILE_LOG_SCHEMA.name,
  priority: FILE_LOG_SCHEMA.priority,
  build(config) {
    const conf = config as FileLogConfig;
    return {
      log(ctx, entry) {
        const line = logEntryJson(ctx, entry) + '\n';
        if (conf.reopen) {
          appendFile(conf.path, line, { mode: 0o644 }, (err) => {
            if (err) pluginLog().error({ plugin: 'file-log', path: conf.path }, `failed to open the file: ${err.message}`);
          });
          return;
        }
        const s = streamFor(conf.path);
        if (s.writableLength > MAX_PENDING_BYTES) {
          if (!warnedFull) pluginLog().error({ plugin: 'file-log', path: conf.path }, 'file-log: the file does not keep up; entries are dropped');
          warnedFull = true;
          return;
        }
        warnedFull = false;
        s.write(line);
      },
    };
  },
};

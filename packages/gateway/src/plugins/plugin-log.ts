// Where plugins report what goes wrong outside a request (a log server down, a file that will
// not open): the worker's logger once set, stderr before. Kong writes these to its error log.

/** The part of a pino logger plugins use. */
export type PluginLogger = { warn(fields: object, message: string): void; error(fields: object, message: string): void };

let logger: PluginLogger = {
  warn: (fields, message) => process.stderr.write(JSON.stringify({ level: 'warn', ...fields, msg: message }) + '\n'),
  error: (fields, message) => process.stderr.write(JSON.stringify({ level: 'error', ...fields, msg: message }) + '\n'),
};

/** Sets the process's logger (the data plane does, at start). */
export function setPluginLogger(log: PluginLogger): void {
  logger = log;
}

/** The process's logger for plugins. */
export const pluginLog = (): PluginLogger => logger;

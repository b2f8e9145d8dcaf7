import { createServer } from 'node:net';

/** A port the system wants, with the setting that chose it. */
export type WantedPort = { setting: string; port: number };

function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * The wanted ports something else already listens on. Checked before anything starts, so the
 * message names the setting instead of one part dying with EADDRINUSE in the middle of the logs.
 * (A port taken between this check and the part's listen still stops the system: the supervisor
 * reports that part's exit.)
 */
export async function findBusyPorts(wanted: readonly WantedPort[], host = '127.0.0.1'): Promise<WantedPort[]> {
  const busy: WantedPort[] = [];
  for (const w of wanted) if (!(await isFree(w.port, host))) busy.push(w);
  return busy;
}

import cluster, { type Worker } from 'node:cluster';

/** The primary's side of the IPC channels to its workers. */
export interface WorkerHub {
  broadcast(message: unknown): void;
  send(workerId: number, message: unknown): void;
  /** Registers a handler of worker messages; returns the unsubscribe function. */
  onMessage(handler: (workerId: number, message: unknown) => void): () => void;
}

/** A worker's side of its IPC channel to the primary. */
export interface PrimaryPort {
  send(message: unknown): void;
  onMessage(handler: (message: unknown) => void): () => void;
  /** Whether the channel to the primary is open (a stopping worker's closes: cluster disconnect). */
  readonly connected?: boolean;
  /** Called once the channel closes; what was asked and not answered by then never will be. */
  onDisconnect?(handler: () => void): () => void;
}

/** node:cluster's workers, seen from the primary. */
export function clusterWorkerHub(): WorkerHub {
  // node:cluster drops a worker from cluster.workers as soon as the primary starts its
  // disconnect, yet the worker still finishes its requests, and those may ask the primary
  // (rate-limiting's `local` counters): answers reach every forked worker until it exits.
  const workers = new Map<number, Worker>();
  cluster.on('fork', (worker: Worker) => workers.set(worker.id, worker));
  cluster.on('exit', (worker: Worker) => workers.delete(worker.id));
  const sendTo = (id: number, message: unknown): void => {
    const worker = workers.get(id) ?? cluster.workers?.[id];
    // A worker that is exiting has a closed channel; its successor asks for the state anew.
    if (worker?.isConnected()) worker.send(message as object);
  };
  return {
    broadcast: (message) => {
      for (const id of Object.keys(cluster.workers ?? {})) sendTo(Number(id), message);
    },
    send: sendTo,
    onMessage: (handler) => {
      const listener = (worker: { id: number }, message: unknown): void => handler(worker.id, message);
      cluster.on('message', listener);
      return () => cluster.off('message', listener);
    },
  };
}

/** This process's channel to its primary (a node:cluster worker, or any forked child). */
export function processPrimaryPort(): PrimaryPort {
  return {
    send: (message) => {
      if (process.connected) process.send?.(message);
    },
    onMessage: (handler) => {
      process.on('message', handler);
      return () => process.off('message', handler);
    },
    get connected() {
      return process.connected;
    },
    onDisconnect: (handler) => {
      process.once('disconnect', handler);
      return () => process.off('disconnect', handler);
    },
  };
}

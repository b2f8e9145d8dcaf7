// A worker's counter operations of one event-loop turn travel in one IPC message and come back
// in order; the primary applies them to the node's one store, so counts stay exact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CounterStore } from '../plugins/rate-limiting/counter-store.ts';
import { counterClient, serveCounters, type CounterMessage } from './counter-messages.ts';
import type { PrimaryPort, WorkerHub } from './worker-hub.ts';

// One primary and one worker wired in memory; every message the worker sends is recorded.
function wire() {
  const sent: CounterMessage[] = [];
  let toWorker: (m: unknown) => void = () => undefined;
  let toPrimary: (id: number, m: unknown) => void = () => undefined;
  const hub: WorkerHub = {
    broadcast: () => undefined,
    send: (_id, m) => queueMicrotask(() => toWorker(m)),
    onMessage: (h) => ((toPrimary = h), () => undefined),
  };
  const port: PrimaryPort = {
    send: (m) => {
      sent.push(m as CounterMessage);
      queueMicrotask(() => toPrimary(1, m));
    },
    onMessage: (h) => ((toWorker = h), () => undefined),
  };
  const turns: (() => void)[] = [];
  serveCounters(new CounterStore(() => 0), hub);
  const client = counterClient(port, (flush) => turns.push(flush));
  const endTurn = () => turns.splice(0).forEach((f) => f());
  return { sent, client, endTurn };
}

const ask = (key: string, limit: number) => [{ key, limit, expireSeconds: 60 }];

test('one message per turn, answers in order, exact across the batch', async () => {
  const { sent, client, endTurn } = wire();
  const first = [client.take(ask('a', 2)), client.take(ask('a', 2)), client.take(ask('a', 2))];
  client.add([{ key: 'r', by: 5, expireSeconds: 60 }]);
  const read = client.read(['r', 'none']);
  assert.equal(sent.length, 0, 'nothing leaves before the turn ends');
  endTurn();
  assert.equal(sent.length, 1);
  assert.deepEqual(sent[0]!.k === 'ops' && sent[0]!.ops.map((o) => o.k), ['take', 'take', 'take', 'add', 'read']);
  assert.deepEqual(await Promise.all(first.map((p) => Promise.resolve(p))), [[0], [1], [2]], 'the third finds the limit of 2 used up');
  assert.deepEqual(await read, [5, 0]);
  const later = client.take(ask('a', 2));
  endTurn();
  assert.equal(sent.length, 2);
  assert.deepEqual(await later, [2]);
});

test('store: read and add (response-ratelimiting), negative increments included', () => {
  let now = 0;
  const store = new CounterStore(() => now);
  store.add([{ key: 'v', by: 3, expireSeconds: 1 }, { key: 'w', by: 1, expireSeconds: 60 }]);
  store.add([{ key: 'v', by: -1, expireSeconds: 1 }]);
  assert.deepEqual(store.read(['v', 'w', 'x']), [2, 1, 0]);
  now = 1000;
  assert.deepEqual(store.read(['v', 'w']), [0, 1], 'v expired with its second');
});

test('a stopping worker whose channel to the primary closes: the batch in flight and later ones are answered from its own store, never left waiting', async () => {
  let connected = true;
  let onDisconnect: () => void = () => undefined;
  const sent: unknown[] = [];
  // A primary that never answers: the channel closes with the batch in flight.
  const port: PrimaryPort = {
    send: (m) => sent.push(m),
    onMessage: () => () => undefined,
    get connected() {
      return connected;
    },
    onDisconnect: (h) => ((onDisconnect = h), () => undefined),
  };
  const turns: (() => void)[] = [];
  const client = counterClient(port, (flush) => turns.push(flush), new CounterStore(() => 0));
  const endTurn = () => turns.splice(0).forEach((f) => f());
  const inFlight = [client.take(ask('k', 5)), client.take(ask('k', 5))];
  endTurn();
  assert.equal(sent.length, 1);
  connected = false;
  onDisconnect();
  assert.deepEqual(await Promise.all(inFlight.map((p) => Promise.resolve(p))), [[0], [1]]);
  const later = client.take(ask('k', 5));
  endTurn();
  assert.equal(sent.length, 1, 'nothing more is sent on a closed channel');
  assert.deepEqual(await later, [2]);
});

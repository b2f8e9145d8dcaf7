/**
 * Orders a shared queue's items round-robin by lane (an account): the first item of every lane,
 * then the second of every lane, and so on; within a lane, and among lanes at one turn, in
 * `before` order. This is how a claimed batch is worked (store/outbox-repository.ts,
 * store/bulk-send-repository.ts), so one lane's backlog does not push another's item to the
 * end of the batch, and one lane's items keep their order.
 */
export function inTurns<T>(items: readonly T[], laneOf: (item: T) => string | null, before: (a: T, b: T) => number): T[] {
  const turns = new Map<string | null, number>();
  const turnOf = new Map<T, number>();
  for (const item of [...items].sort(before)) {
    const lane = laneOf(item);
    const turn = turns.get(lane) ?? 0;
    turns.set(lane, turn + 1);
    turnOf.set(item, turn);
  }
  return [...items].sort((a, b) => (turnOf.get(a) ?? 0) - (turnOf.get(b) ?? 0) || before(a, b));
}

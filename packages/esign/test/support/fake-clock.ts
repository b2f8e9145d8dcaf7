/** A clock the test moves by hand: codes and tokens expire without waiting. */
export class FakeClock {
  #ms: number;
  constructor(start = Date.now()) {
    this.#ms = start;
  }
  readonly now = (): Date => new Date(this.#ms);
  advance(seconds: number): void {
    this.#ms += seconds * 1000;
  }
}

// The upstream request's header edits a route's plugins made (kong.service.request.set_header /
// clear_header), by lower-case name in the order first made. Two parallel lists, not a Map: a
// request carries one or two edits (correlation-id's header, a consumer's X-Consumer-*), and a
// Map per request was the plugin path's largest single allocation after the context itself.

/** One upstream header edit: set to [name as given, value or values], or removed (null). */
export type HeaderEdit = readonly [string, string | readonly string[]] | null;

export class HeaderEdits {
  /** The edited names, lower-case; entry k is edited by `edits[k]`. */
  readonly lowers: string[];
  readonly edits: HeaderEdit[];

  /** Made with its first edit: lists of one, rather than empty ones grown on the first push. */
  constructor(lower: string, edit: HeaderEdit) {
    this.lowers = [lower];
    this.edits = [edit];
  }

  /** Sets the edit of `lower` (a later edit of a name replaces the earlier one, in its place). */
  set(lower: string, edit: HeaderEdit): void {
    const i = this.lowers.indexOf(lower);
    if (i === -1) {
      this.lowers.push(lower);
      this.edits.push(edit);
    } else {
      this.edits[i] = edit;
    }
  }

  has(lower: string): boolean {
    return this.lowers.includes(lower);
  }
}

// Baseline 3, the floor: the page the query returns, already built as plain objects; a call is
// only JSON.stringify of it. Nothing that answers the query can be faster than writing its
// answer, so engine/floor says how much the engine adds on top of serialization.

export class FloorBaseline {
  private readonly pages = new Map<string, unknown>();

  /** Remember the page objects of a named query (parsed from a reference answer). */
  set(name: string, pageObject: unknown): void {
    this.pages.set(name, pageObject);
  }

  has(name: string): boolean {
    return this.pages.has(name);
  }

  list(name: string): string {
    const page = this.pages.get(name);
    if (page === undefined) throw new Error(`floor: no page stored for query ${name}`);
    return JSON.stringify(page);
  }
}

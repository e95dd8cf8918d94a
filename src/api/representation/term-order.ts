// The order an event shows its categories and tags in: by name (case-insensitive), then id. Kept
// per list (the engine interns each distinct list) and per term (its name lowered) until a term
// changes; the renderer (render.ts) asks it when it makes an event's pieces.

import type { EngineApi } from '../../engine/engine-api.ts';
import type { IdListPool } from '../../engine/event-table.ts';

/** distinct category or tag lists whose order by name is kept (TermOrders.orders), outside the budget */
const ORDERS_MAX = 16_384;
const NO_TERMS: readonly number[] = [];

export class TermOrders {
  /** term id → its name lowered (termKey); one short string a term */
  private readonly termKeys = new Map<number, string>();
  /** a category or tag list (its number in the event table's pool) → its terms' ids by name (orderOf) */
  private readonly orders = new Map<number, readonly number[]>();
  /** the pool those numbers are of */
  private pool: IdListPool | undefined;

  constructor(private readonly engine: EngineApi) {}

  /** A term changed: its lowered name goes (it may be renamed), and every kept order with it. */
  termChanged(id: number): void {
    this.termKeys.delete(id);
    this.orders.clear();
  }

  /**
   * The ids among list k of the event table's pool (a list of category or tag ids) whose terms
   * exist, by name, then id. Events carry the numbers of their lists in the pool (one per
   * distinct list), so the order is kept by that number, shared by every event that carries it,
   * and made again only when a term changes (termChanged empties the memo) or past ORDERS_MAX
   * lists.
   */
  orderOf(pool: IdListPool, k: number): readonly number[] {
    if (k === 0) return NO_TERMS;
    if (pool !== this.pool) {
      this.orders.clear();
      this.pool = pool;
    }
    let order = this.orders.get(k);
    if (order === undefined) {
      if (this.orders.size >= ORDERS_MAX) this.orders.clear();
      this.orders.set(k, (order = this.byName(pool.list(k))));
    }
    return order;
  }

  /** The ids among `ids` of terms that exist, by name (case-insensitive), then id. An insertion
   *  sort: an event has a few terms. */
  private byName(ids: readonly number[]): number[] {
    const order: number[] = [];
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      const key = this.termKey(id);
      if (key === undefined) continue; // a link to a deleted term shows nothing
      let j = order.length - 1;
      order.push(id);
      for (; j >= 0; j--) {
        const other = this.termKeys.get(order[j])!;
        if (other < key || (other === key && order[j] < id)) break;
        order[j + 1] = order[j];
      }
      order[j + 1] = id;
    }
    return order;
  }

  /** A term's name lowered (what events order their terms by), kept until the term changes;
   *  undefined when there is no such term. */
  private termKey(id: number): string | undefined {
    let key = this.termKeys.get(id);
    if (key === undefined) {
      const term = this.engine.term(id);
      if (term === undefined) return undefined;
      key = term.name.toLowerCase();
      this.termKeys.set(id, key);
    }
    return key;
  }
}

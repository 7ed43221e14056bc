import type { PushWarningKey } from '../server/core/http/error-catalogue.ts';

/**
 * Row-level problems of a push (spec 4.4 rule 3): reported in `warnings[]` with the error key while the rest
 * of the batch is written. Each names its row index and the ids the row sent; a child plan's warning also
 * names the parent plan.
 */
export interface PushWarning {
  row: number;
  key: PushWarningKey;
  room_type_id?: string;
  rate_plan_id?: string;
  code?: string;
  kind?: string;
  allowed_codes?: string[];
  parent_rate_plan_id?: string | null;
}

export class Warnings {
  readonly list: PushWarning[] = [];
  readonly #rows = new Set<number>();

  add(warning: PushWarning): void {
    this.list.push(warning);
    this.#rows.add(warning.row);
  }

  /** Rows with at least one warning: the `failed` count of the push event. */
  get failedRows(): number {
    return this.#rows.size;
  }
}

import { copyLineOf } from './import-writes.js';
import type { CheckedRow } from './participant-rows.js';

/**
 * A batch of checked rows on its way to the import table, filled as the rows are checked.
 * On PostgreSQL it is COPY text (`CopyTextBatch`); on the embedded database, which takes
 * the batch as one JSON document, the rows themselves (`RowListBatch`).
 */
export interface ImportBatch {
  /** Rows added so far. */
  readonly size: number;
  add(row: CheckedRow): void;
}

/** A batch as COPY's text lines, written to a buffer as each row comes. */
export class CopyTextBatch implements ImportBatch {
  size = 0;
  private buffer = Buffer.allocUnsafe(1 << 20);
  private length = 0;

  /**
   * Encodes the row at once: the checked row dies young (a row kept until its batch was
   * sent outlived the young generation, and collecting 100,000 of them there cost more
   * than checking them), and no second pass over the batch is needed.
   */
  add(row: CheckedRow): void {
    const line = copyLineOf(row);
    // UTF-8 takes at most three bytes per UTF-16 unit.
    if (this.length + line.length * 3 > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + line.length * 3));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += this.buffer.write(line, this.length);
    this.size += 1;
  }

  /** The batch's COPY text so far. */
  text(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** A batch as the checked rows, for the embedded database's JSON path. */
export class RowListBatch implements ImportBatch {
  readonly rows: CheckedRow[] = [];

  get size(): number {
    return this.rows.length;
  }

  add(row: CheckedRow): void {
    this.rows.push(row);
  }
}

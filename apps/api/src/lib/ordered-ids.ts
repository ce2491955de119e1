import { randomFillSync } from 'node:crypto';

/**
 * UUID version 7 ids (RFC 9562: milliseconds, then a counter, then random bits), in order
 * also within a millisecond, as the `uuid` package's `v7()` makes them — but with the
 * random bytes taken from a pool filled a block at a time. `v7()` asks the system for 16
 * bytes per id, a system call each: in a large import that was a large share of the parser's
 * time (docs/benchmarks.md, "Figures behind the code").
 */
const POOL = 65_536;
const pool = Buffer.alloc(POOL);
let used = POOL;
const hex = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const state = { msecs: -Infinity, seq: 0 };

function random16(): Buffer {
  if (used + 16 > POOL) {
    randomFillSync(pool);
    used = 0;
  }
  used += 16;
  return pool.subarray(used - 16, used);
}

export function orderedId(): string {
  const r = random16();
  const now = Date.now();
  if (now > state.msecs) {
    // A new millisecond starts its counter at a random point (31 bits), as `v7()` does.
    state.seq = ((r[6]! & 0x7f) << 24) | (r[7]! << 16) | (r[8]! << 8) | r[9]!;
    state.msecs = now;
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs += 1;
  }
  const { msecs, seq } = state;
  const b = [
    (msecs / 0x10000000000) & 0xff,
    (msecs / 0x100000000) & 0xff,
    (msecs / 0x1000000) & 0xff,
    (msecs / 0x10000) & 0xff,
    (msecs / 0x100) & 0xff,
    msecs & 0xff,
    0x70 | ((seq >>> 28) & 0x0f),
    (seq >>> 20) & 0xff,
    0x80 | ((seq >>> 14) & 0x3f),
    (seq >>> 6) & 0xff,
    ((seq << 2) & 0xff) | (r[10]! & 0x03),
    r[11]!,
    r[12]!,
    r[13]!,
    r[14]!,
    r[15]!,
  ].map((byte) => hex[byte]!);
  return (
    `${b[0]}${b[1]}${b[2]}${b[3]}-${b[4]}${b[5]}-${b[6]}${b[7]}-${b[8]}${b[9]}-` +
    `${b[10]}${b[11]}${b[12]}${b[13]}${b[14]}${b[15]}`
  );
}

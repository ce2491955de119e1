/**
 * CPU time spent by the app's server and by PostgreSQL (every `postgres` process on the
 * machine), read from /proc (Linux; null elsewhere). On a shared machine the throughput of a
 * run moves with what the neighbours do; the CPU a unit of work costs moves far less, so a
 * change's cost is read in both.
 */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

/** Clock ticks per second of /proc's counters (USER_HZ; 100 on Linux builds). */
const TICKS_PER_SECOND = 100;

function ticksOf(pid: string): { command: string; ticks: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command is in brackets and may hold spaces; the fields after it are space-separated.
    const close = stat.lastIndexOf(')');
    const command = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // utime and stime: fields 14 and 15 of the line, 11 and 12 after the command.
    return { command, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

export interface CpuSample {
  serverMs: number;
  databaseMs: number;
}

/** The server's CPU and PostgreSQL's so far, in milliseconds; null where /proc is not there. */
export function sampleCpu(serverPid: number): CpuSample | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const server = ticksOf(String(serverPid));
  if (!server) return null;
  let database = 0;
  for (const pid of pids) {
    const sample = ticksOf(pid);
    if (sample?.command === 'postgres') database += sample.ticks;
  }
  const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  return { serverMs: ms(server.ticks), databaseMs: ms(database) };
}

/** What was spent between two samples, per unit of work (ms each). */
export function cpuPer(before: CpuSample | null, after: CpuSample | null, units: number) {
  if (!before || !after || units <= 0) return null;
  return {
    serverMs: (after.serverMs - before.serverMs) / units,
    databaseMs: (after.databaseMs - before.databaseMs) / units,
  };
}

/**
 * Where PostgreSQL's write-ahead log stands (its LSN, in bytes), or null on the embedded
 * database: the log written per unit of work is what a write costs the disk, whatever the
 * neighbours do.
 */
export async function walPosition(databaseUrl: string | undefined): Promise<bigint | null> {
  if (!databaseUrl) return null;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ lsn: string }>("select (pg_current_wal_lsn() - '0/0'::pg_lsn)::text as lsn");
    return BigInt(rows[0]!.lsn.split('.')[0]!);
  } finally {
    await client.end();
  }
}

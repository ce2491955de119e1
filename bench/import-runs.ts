/**
 * The import of `count` participants, timed `runs` times with the kept counts (as it ships)
 * and, on PostgreSQL, as many times with their triggers off (the import before issue #36),
 * the two alternating so that a busy neighbour weighs on both alike. Each run imports new
 * people into a new project, then waits for its search rows: the seconds from COMPLETE
 * until the project's search is up to date are part of each run's figures.
 */
import { benchParticipantImport } from './participant-import-bench.js';
import { rebuildKeptCountsOfProject, setKeptTriggers } from './kept-triggers.js';
import { waitForImportFollowUp } from './server-waits.js';

export type ImportRun = Awaited<ReturnType<typeof benchParticipantImport>> & {
  keptCounts: boolean;
  searchReadySeconds: number | null;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : null;
};

export interface ImportRuns {
  runs: ImportRun[];
  /** Median seconds with the kept counts, and without them (PostgreSQL only). */
  medianWith: number | null;
  medianWithout: number | null;
  /** The last run with the kept counts: its project is the one the lists are measured on. */
  last: ImportRun;
}

export async function runImports(options: {
  base: string;
  token: string;
  count: number;
  serverPid: number;
  databaseUrl: string | undefined;
  runs: number;
}): Promise<ImportRuns> {
  const { base, token, count, serverPid, databaseUrl } = options;
  const runs: ImportRun[] = [];
  const one = async (keptCounts: boolean) => {
    if (!keptCounts) await setKeptTriggers(databaseUrl!, false);
    let figures;
    try {
      figures = await benchParticipantImport(base, token, count, serverPid, runs.length);
    } finally {
      if (!keptCounts) await setKeptTriggers(databaseUrl!, true);
    }
    // Counted now, so the project's dashboard is right for what follows.
    if (!keptCounts) await rebuildKeptCountsOfProject(databaseUrl!, figures.projectId);
    const searchReadySeconds = await waitForImportFollowUp(databaseUrl, figures.projectId);
    const run = { ...figures, keptCounts, searchReadySeconds };
    runs.push(run);
    console.log(
      `  import of ${count} participants (${keptCounts ? 'kept counts' : 'no kept counts'}): ` +
        `${run.seconds.toFixed(2)} s, ${Math.round(run.rowsPerSecond)} rows/s, server peak memory ${run.peakMemoryMb} MB` +
        (searchReadySeconds !== null ? `; search up to date ${searchReadySeconds.toFixed(1)} s after COMPLETE` : ''),
    );
    return run;
  };
  let last: ImportRun | undefined;
  for (let i = 0; i < options.runs; i++) {
    if (databaseUrl && options.runs > 1) await one(false);
    last = await one(true);
  }
  const seconds = (keptCounts: boolean) => runs.filter((r) => r.keptCounts === keptCounts).map((r) => r.seconds);
  return { runs, medianWith: median(seconds(true)), medianWithout: median(seconds(false)), last: last! };
}

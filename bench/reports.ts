/**
 * The reports benchmark: downloads reports of a project seeded with about a million answers
 * (`bench/report-seed.ts`) from the running server, as a client would, and measures for each
 * the time to the first byte of the file, rows per second over the whole download, and how
 * much the server's resident memory grew meanwhile (sampled from /proc every 20 ms).
 */
import { readFileSync } from 'node:fs';
import type { ReportSeed } from './report-seed.js';

export interface ReportFigures {
  report: string;
  format: 'csv' | 'xlsx';
  rows: number;
  bytes: number;
  firstByteMs: number;
  seconds: number;
  rowsPerSecond: number;
  memoryBeforeMb: number | null;
  memoryPeakMb: number | null;
  memoryGrowthMb: number | null;
}

/** The server's resident memory now, from /proc (Linux); null elsewhere. */
function residentMb(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10;

async function download(
  base: string,
  token: string,
  serverPid: number,
  path: string,
  format: 'csv' | 'xlsx',
  knownRows: number | null,
): Promise<Omit<ReportFigures, 'report'>> {
  const before = residentMb(serverPid);
  let peak = before;
  const sampler = setInterval(() => {
    const now = residentMb(serverPid);
    if (now !== null && (peak === null || now > peak)) peak = now;
  }, 20);
  try {
    const started = performance.now();
    const response = await fetch(`${base}${path}${path.includes('?') ? '&' : '?'}format=${format}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok || !response.body) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    let firstByte: number | null = null;
    let bytes = 0;
    let lines = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      firstByte ??= performance.now() - started;
      bytes += chunk.byteLength;
      if (format === 'csv') for (const byte of chunk) if (byte === 10) lines += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    // CSV rows are counted as they arrive (less the header); a workbook has the CSV's.
    const rows = format === 'csv' ? lines - 1 : (knownRows ?? 0);
    return {
      format,
      rows,
      bytes,
      firstByteMs: round1(firstByte ?? seconds * 1000),
      seconds: round1(seconds),
      rowsPerSecond: Math.round(rows / seconds),
      memoryBeforeMb: before === null ? null : Math.round(before),
      memoryPeakMb: peak === null ? null : Math.round(peak),
      memoryGrowthMb: before === null || peak === null ? null : Math.round(peak - before),
    };
  } finally {
    clearInterval(sampler);
  }
}

/** Downloads each report in CSV, then the two largest in XLSX, one at a time, and prints the figures. */
export async function runReportBench(
  base: string,
  token: string,
  seed: ReportSeed,
  serverPid: number,
): Promise<ReportFigures[]> {
  const at = `/api/reports/${seed.projectId}`;
  const season = encodeURIComponent(seed.seasonName);
  const reports = [
    { report: 'project-score', path: `${at}/project-score?seasonName=${season}`, xlsx: true },
    { report: 'participants-progress', path: `${at}/participants-progress?seasonName=${season}`, xlsx: true },
    { report: 'project-usage', path: `${at}/project-usage`, xlsx: false },
    { report: 'project-progress', path: `${at}/project-progress`, xlsx: false },
  ];
  const figures: ReportFigures[] = [];
  const show = (f: ReportFigures) =>
    console.log(
      `  ${`${f.report} (${f.format})`.padEnd(30)} ${String(f.rows).padStart(7)} rows, first byte ` +
        `${f.firstByteMs} ms, ${f.seconds} s, ${f.rowsPerSecond} rows/s, ${(f.bytes / 1048576).toFixed(1)} MB, ` +
        `server memory ${f.memoryBeforeMb} → ${f.memoryPeakMb} MB (+${f.memoryGrowthMb})`,
    );
  for (const r of reports) {
    const csv = { report: r.report, ...(await download(base, token, serverPid, r.path, 'csv', null)) };
    figures.push(csv);
    show(csv);
    if (!r.xlsx) continue;
    const xlsx = { report: r.report, ...(await download(base, token, serverPid, r.path, 'xlsx', csv.rows)) };
    figures.push(xlsx);
    show(xlsx);
  }
  return figures;
}

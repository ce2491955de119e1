import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { ImportJob } from '@pss/contract';

/** Where an upload goes and where its latest import job is read: one per kind of import. */
export interface ImportJobSource {
  /** The cache key of the latest job. */
  queryKey: QueryKey;
  latest(signal: AbortSignal): Promise<ImportJob | null>;
  upload(file: File): Promise<ImportJob>;
  /** What the import writes: refreshed when a job finishes. */
  refreshOnFinish: QueryKey;
  enabled?: boolean;
}

export function isImportRunning(job: ImportJob | null | undefined): boolean {
  return job?.state === 'NOT_STARTED' || job?.state === 'RUNNING';
}

/** How far a job is, for a progress bar: a queued job shows a sliver, a running one at least a tenth. */
export function importProgress(job: ImportJob): number {
  if (job.state === 'NOT_STARTED') return 5;
  const percent = job.total_rows > 0 ? Math.round((job.processed_rows / job.total_rows) * 100) : 0;
  return Math.min(100, Math.max(percent, 10));
}

/**
 * The latest import of one kind, followed while it runs (every second; the page can be left
 * and come back to), the upload that starts a new one, and a refresh of what it wrote when
 * it finishes.
 */
export function useImportJob(source: ImportJobSource) {
  const queryClient = useQueryClient();
  const latest = useQuery({
    queryKey: source.queryKey,
    queryFn: ({ signal }) => source.latest(signal),
    enabled: source.enabled ?? true,
    refetchInterval: (query) => (isImportRunning(query.state.data) ? 1000 : false),
  });
  const upload = useMutation({
    mutationFn: (file: File) => source.upload(file),
    onSuccess: (job) => queryClient.setQueryData(source.queryKey, job),
  });
  const job = latest.data ?? null;
  const running = isImportRunning(job);

  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) void queryClient.invalidateQueries({ queryKey: source.refreshOnFinish });
    wasRunning.current = running;
  }, [running, queryClient, source.refreshOnFinish]);

  return { job, running, upload };
}

import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  seasonSummaryRoutes,
  type SaveSeasonSummaryBody,
  type SeasonSummary,
  type SeasonSummaryOfSeason,
  type SeasonSummaryStatusValue,
} from '@pss/contract';
import { call, callRaw } from '../../lib/api-client';
import { saveDownload } from '../../lib/download';

export type SummaryFileKind = 'sheet' | 'video';

export const summaryKeys = {
  all: ['season-summaries'] as const,
  ofSeason: (projectId: string, seasonName: string) => ['season-summaries', projectId, seasonName] as const,
};

/** The season and its summary (null until the first save). */
export function seasonSummaryQueryOptions(projectId: string, seasonName: string) {
  return queryOptions({
    queryKey: summaryKeys.ofSeason(projectId, seasonName),
    queryFn: ({ signal }) =>
      call(seasonSummaryRoutes.get, { params: { id: projectId }, query: { seasonName } }, { signal }),
    enabled: Boolean(seasonName),
  });
}

/** Every write answers the summary as it now is: it replaces the season's in the cache. */
function useSummaryWrite<Input>(projectId: string, seasonName: string, run: (input: Input) => Promise<SeasonSummary>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (summary) =>
      queryClient.setQueryData<SeasonSummaryOfSeason>(summaryKeys.ofSeason(projectId, seasonName), (current) =>
        current ? { ...current, summary } : current,
      ),
  });
}

export function useSaveSeasonSummary(projectId: string, seasonName: string) {
  return useSummaryWrite(projectId, seasonName, (body: SaveSeasonSummaryBody) =>
    call(seasonSummaryRoutes.save, { params: { id: projectId }, query: { seasonName }, body }),
  );
}

/** Posts the summary or takes it down (the status call's id is the summary's). */
export function useSeasonSummaryStatus(projectId: string, seasonName: string) {
  return useSummaryWrite(projectId, seasonName, (input: { id: string; status: SeasonSummaryStatusValue }) =>
    call(seasonSummaryRoutes.setStatus, { params: { id: input.id }, body: { status: input.status } }),
  );
}

const fileRoutes = {
  sheet: { set: seasonSummaryRoutes.setSheet, remove: seasonSummaryRoutes.removeSheet, get: seasonSummaryRoutes.sheet },
  video: { set: seasonSummaryRoutes.setVideo, remove: seasonSummaryRoutes.removeVideo, get: seasonSummaryRoutes.video },
};

/** Uploads the sheet or video (a file), or removes it (null). */
export function useSeasonSummaryFile(projectId: string, seasonName: string, kind: SummaryFileKind) {
  return useSummaryWrite(projectId, seasonName, (input: { id: string; file: File | null }) =>
    input.file
      ? call(fileRoutes[kind].set, { params: { id: input.id }, file: input.file })
      : call(fileRoutes[kind].remove, { params: { id: input.id } }),
  );
}

/** Saves the uploaded sheet or video, as the editor checks what participants will get. */
export function downloadSummaryFile(id: string, kind: SummaryFileKind, fallbackName: string): Promise<void> {
  return saveDownload(callRaw(fileRoutes[kind].get, { params: { id } }), fallbackName);
}

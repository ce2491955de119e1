import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  attemptRoutes,
  certificateRoutes,
  seasonSummaryRoutes,
  surveyRoutes,
  userRoutes,
  type CaseAnswer,
  type SurveyAnswerBody,
} from '@pss/contract';
import { call, callRaw } from '../../lib/api-client';
import { takeStartedData } from '../../lib/session/early-start';
import { saveDownload } from '../../lib/download';

export const participantKeys = {
  dashboard: ['participant', 'dashboard'] as const,
  certificates: ['participant', 'certificates'] as const,
  attempt: (id: string) => ['participant', 'attempt', id] as const,
  surveys: (id: string) => ['participant', 'surveys', id] as const,
};

/** The surveys due around a case: before it (start), after its feedback (review), after the season's last (end). */
export const dueSurveysQueryOptions = (attemptId: string) =>
  queryOptions({
    queryKey: participantKeys.surveys(attemptId),
    queryFn: ({ signal }) => call(surveyRoutes.due, { params: { userSeasonRoundCaseId: attemptId } }, { signal }),
  });

export function answerSurvey(templateId: string, attemptId: string, body: SurveyAnswerBody) {
  return call(surveyRoutes.answer, { params: { id: templateId, userSeasonRoundCaseId: attemptId }, body });
}

/** A participant corrects their own display name or mobile number (a survey's info review). */
export function correctProfile(userId: string, field: 'display_name' | 'mobile_number', value: string) {
  const trimmed = value.trim() || null;
  return field === 'display_name'
    ? call(userRoutes.setDisplayName, { params: { userId }, body: { display_name: trimmed } })
    : call(userRoutes.setMobileNumber, { params: { userId }, body: { mobile_number: trimmed } });
}

export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: participantKeys.dashboard,
    // The first read takes the one sent as the page started (lib/session/early-start.ts).
    queryFn: ({ signal }) =>
      takeStartedData('participant-dashboard', () => call(attemptRoutes.dashboard, {}, { signal })),
  });

export const attemptQueryOptions = (id: string) =>
  queryOptions({
    queryKey: participantKeys.attempt(id),
    queryFn: ({ signal }) => call(attemptRoutes.get, { params: { userSeasonRoundCaseId: id } }, { signal }),
  });

/** The patient image of one of the participant's unlocked cases, as an object URL. */
export const caseImageQueryOptions = (caseId: string, enabled: boolean) =>
  queryOptions({
    queryKey: ['participant', 'case-image', caseId] as const,
    queryFn: async () =>
      URL.createObjectURL(await (await callRaw(attemptRoutes.caseImage, { params: { caseId } })).blob()),
    enabled,
    staleTime: Infinity,
  });

export function saveAnswer(attemptId: string, answer: CaseAnswer) {
  return call(attemptRoutes.answer, { params: { id: attemptId }, body: answer });
}

/** start, submit: each answers the attempt as it now stands. */
export function useAttemptAction(attemptId: string, action: 'start' | 'submit') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(attemptRoutes[action], { params: { id: attemptId } }),
    onSuccess: (attempt) => {
      queryClient.setQueryData(participantKeys.attempt(attemptId), attempt);
      void queryClient.invalidateQueries({ queryKey: participantKeys.dashboard });
      if (action === 'submit') void queryClient.invalidateQueries({ queryKey: participantKeys.certificates });
    },
  });
}

export function stampAttempt(attemptId: string, what: 'finish' | 'score-accessed') {
  return call(what === 'finish' ? attemptRoutes.finish : attemptRoutes.scoreAccessed, { params: { id: attemptId } });
}

const summaryFileRoutes = {
  sheet: seasonSummaryRoutes.participantSheet,
  video: seasonSummaryRoutes.participantVideo,
};

/** Saves the sheet of a posted results summary (a plain link cannot send the session's token). */
export function downloadSummarySheet(summaryId: string, fallbackName: string): Promise<void> {
  return saveDownload(callRaw(summaryFileRoutes.sheet, { params: { id: summaryId } }), fallbackName);
}

/** The video of a posted results summary as an object URL for the player (the caller revokes it). */
export async function loadSummaryVideo(summaryId: string): Promise<string> {
  const response = await callRaw(summaryFileRoutes.video, { params: { id: summaryId } });
  return URL.createObjectURL(await response.blob());
}

/** The participant's CME certificates (newest first); a submit that earns one refreshes them. */
export const certificatesQueryOptions = () =>
  queryOptions({
    queryKey: participantKeys.certificates,
    queryFn: ({ signal }) => call(certificateRoutes.mine, {}, { signal }),
  });

/** Saves one of the participant's certificates as a PDF. */
export function downloadCertificate(id: string, code: string): Promise<void> {
  return saveDownload(callRaw(certificateRoutes.myPdf, { params: { id } }), `certificate-${code}.pdf`);
}

import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Attempt, CaseAnswer, Dashboard } from '@pss/contract';
import { apiRequest, buildPath } from '../../lib/api-client';

export const participantKeys = {
  dashboard: ['participant', 'dashboard'] as const,
  attempt: (id: string) => ['participant', 'attempt', id] as const,
};

export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: participantKeys.dashboard,
    queryFn: ({ signal }) => apiRequest<Dashboard>('/dashboard', { signal }),
  });

export const attemptQueryOptions = (id: string) =>
  queryOptions({
    queryKey: participantKeys.attempt(id),
    queryFn: ({ signal }) => apiRequest<Attempt>(buildPath('/users/{id}/questions', { id }), { signal }),
  });

export function saveAnswer(attemptId: string, answer: CaseAnswer) {
  return apiRequest<{ saved: true }>(buildPath('/cases/{id}/answer', { id: attemptId }), {
    method: 'POST',
    body: answer,
  });
}

/** start, submit: each answers the attempt as it now stands. */
export function useAttemptAction(attemptId: string, action: 'start' | 'submit') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<Attempt>(buildPath(`/cases/{id}/${action}`, { id: attemptId }), { method: 'POST', body: {} }),
    onSuccess: (attempt) => {
      queryClient.setQueryData(participantKeys.attempt(attemptId), attempt);
      void queryClient.invalidateQueries({ queryKey: participantKeys.dashboard });
    },
  });
}

export function stampAttempt(attemptId: string, what: 'finish' | 'score-accessed') {
  return apiRequest<void>(buildPath(`/cases/{id}/${what}`, { id: attemptId }), { method: 'POST' });
}

import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type CreateStaffUserBody, type UpdateUserBody, clientRoutes, userRoutes } from '@pss/contract';
import { call } from '../../lib/api-client';

export const userKeys = {
  all: ['users'] as const,
  list: (params: object) => ['users', 'list', params] as const,
  detail: (id: string) => ['users', 'detail', id] as const,
  assignments: (id: string) => ['users', 'assignments', id] as const,
};

export function userListQueryOptions(params: {
  page: number;
  limit: number;
  search?: string;
  sort?: string;
  filter?: string;
}) {
  return queryOptions({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) => call(userRoutes.list, { query: { ...params } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function userQueryOptions(id: string | undefined) {
  return queryOptions({
    queryKey: userKeys.detail(id ?? ''),
    queryFn: ({ signal }) => call(userRoutes.get, { params: { id } }, { signal }),
    enabled: Boolean(id),
  });
}

export function assignmentsQueryOptions(id: string | undefined) {
  return queryOptions({
    queryKey: userKeys.assignments(id ?? ''),
    queryFn: ({ signal }) => call(userRoutes.assignments, { params: { id } }, { signal }),
    enabled: Boolean(id),
  });
}

/** Clients for the staff-account picker. */
export function clientOptionsQueryOptions() {
  return queryOptions({
    queryKey: ['users', 'client-options'],
    queryFn: ({ signal }) => call(clientRoutes.list, { query: { limit: 200, sort: 'name:ASC' } }, { signal }),
    staleTime: 60_000,
  });
}

export function useCreateStaffUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateStaffUserBody) => call(userRoutes.createStaff, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useUpdateUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUserBody) => call(userRoutes.update, { params: { id }, body }),
    onSuccess: (user) => {
      queryClient.setQueryData(userKeys.detail(id), user);
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}

/** A superadmin clears a staff member's second factors (they are told by email). */
export function resetSecondFactors(userId: string) {
  return call(userRoutes.resetSecondFactor, { params: { id: userId } });
}

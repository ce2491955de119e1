import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { surveyTemplateTypes, type SurveyTemplateFilter, type SurveyTemplateTypeValue } from '@pss/contract';
import { useTranslation } from '../../lib/i18n';
import { useUrlParam } from '../../lib/use-url-param';
import { filterClientOptions, filterProjectOptions } from './surveys-api';

/**
 * The list's filters — type, client and project — kept in the query string (`?type=`,
 * `?client=`, `?project=`) like its page and search. A template of a client is one a project of
 * that client uses; of a project, one that project uses.
 */
export function useSurveyTemplateFilters() {
  const [rawType, setType] = useUrlParam('type');
  const [client, setClient] = useUrlParam('client');
  const [project, setProject] = useUrlParam('project');
  const type = (surveyTemplateTypes as readonly string[]).includes(rawType ?? '')
    ? (rawType as SurveyTemplateTypeValue)
    : null;
  const filter: SurveyTemplateFilter = {
    ...(type ? { type } : {}),
    ...(client ? { client_id: client } : {}),
    ...(project ? { project_id: project } : {}),
  };
  return { type, client, project, filter, setType, setClient, setProject };
}

type Filters = ReturnType<typeof useSurveyTemplateFilters>;

/** The three selects; `onChange` runs before any of them changes (the selection is cleared). */
export function SurveyTemplateFilterFields(props: { filters: Filters; onChange(): void }) {
  const { t } = useTranslation();
  const { filters, onChange } = props;
  const clients = useQuery(filterClientOptions());
  const projects = useQuery(filterProjectOptions(filters.client));
  const change = (set: (value: string | null) => void) => (value: string | null) => {
    onChange();
    set(value);
  };
  return (
    <>
      <Select
        label={t('surveys.type')}
        placeholder={t('surveys.allTypes')}
        data={surveyTemplateTypes.map((value) => ({ value, label: t(`surveys.types.${value}`) }))}
        value={filters.type}
        clearable
        w={240}
        onChange={change(filters.setType)}
      />
      <Select
        label={t('surveys.client')}
        placeholder={t('surveys.allClients')}
        description={t('surveys.clientHelp')}
        data={(clients.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))}
        value={filters.client}
        clearable
        searchable
        w={220}
        onChange={(value) => {
          onChange();
          // A project of another client would match nothing: it goes with the client.
          if (filters.project) filters.setProject(null);
          filters.setClient(value);
        }}
      />
      <Select
        label={t('surveys.projectFilter')}
        placeholder={t('surveys.allProjects')}
        description={t('surveys.projectHelp')}
        data={(projects.data?.items ?? []).map((p) => ({
          value: p.id,
          label: filters.client ? p.name : `${p.client_name} › ${p.name}`,
        }))}
        value={filters.project}
        clearable
        searchable
        w={280}
        onChange={change(filters.setProject)}
      />
    </>
  );
}

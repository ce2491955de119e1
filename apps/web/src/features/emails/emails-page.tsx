import { useState } from 'react';
import { Button, Group, Select, Stack, Tabs, Text, Title } from '@mantine/core';
import { useOutletContext } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { projectEmailTypes, type Project } from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { errorMessage } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/toasts';
import { DeliveryLog } from './delivery-log';
import { EmailSchedule } from './email-schedule';
import { EmailCalendar } from './email-calendar';
import { EmailTemplatesTable } from './email-templates-table';
import { useDisableEmails, type EmailSet } from './emails-api';
import { useLiveSearchParams } from '../../lib/use-live-search-params';

const views = ['templates', 'log', 'schedule', 'calendar'] as const;
type View = (typeof views)[number];
const tabLabel = {
  templates: 'emails.templatesTab',
  log: 'emails.logTab',
  schedule: 'emails.scheduleTab',
  calendar: 'emails.calendarTab',
} as const;

/**
 * Project Emails: the project's eight emails and each season's five (enabled, send mode, an
 * editor each), the delivery log of what was sent, who the schedule picks on a day, and the
 * season's calendar of what it will send.
 */
export function EmailsPage() {
  const { t } = useTranslation();
  const { project } = useOutletContext<{ project: Project }>();
  const [params, replaceParams] = useLiveSearchParams();
  const requested = params.get('view');
  const view: View = views.find((v) => v === requested) ?? 'templates';

  function showView(next: string | null) {
    // Each view keeps its own query string; the chosen season stays.
    replaceParams((current) => {
      const kept = new URLSearchParams();
      const season = current.get('season');
      if (season) kept.set('season', season);
      if (next && next !== 'templates') kept.set('view', next);
      return kept;
    });
  }

  return (
    <Stack>
      <Title order={3}>{t('emails.title')}</Title>
      <Tabs value={view} onChange={showView} keepMounted={false}>
        <Tabs.List aria-label={t('emails.views')}>
          {views.map((v) => (
            <Tabs.Tab key={v} value={v}>
              {t(tabLabel[v])}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="templates" pt="md">
          <TemplatesView project={project} />
        </Tabs.Panel>
        <Tabs.Panel value="log" pt="md">
          <DeliveryLog projectId={project.id} />
        </Tabs.Panel>
        <Tabs.Panel value="schedule" pt="md">
          <EmailSchedule projectId={project.id} />
        </Tabs.Panel>
        <Tabs.Panel value="calendar" pt="md">
          <EmailCalendar
            project={project}
            base={`/project-management/clients/${project.client_id}/projects/${project.id}/emails`}
          />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function TemplatesView({ project }: { project: Project }) {
  const { t } = useTranslation();
  const [params, replaceParams] = useLiveSearchParams();
  const disable = useDisableEmails(project.id);
  const [disabling, setDisabling] = useState<EmailSet | null>(null);
  const base = `/project-management/clients/${project.client_id}/projects/${project.id}/emails`;
  const season = project.seasons.find((s) => s.id === params.get('season')) ?? project.seasons[0];

  function chooseSeason(id: string | null) {
    replaceParams((current) => {
      const next = new URLSearchParams(current);
      if (id) next.set('season', id);
      else next.delete('season');
      return next;
    });
  }

  async function confirmDisable() {
    if (!disabling) return;
    try {
      const result = await disable.mutateAsync(disabling);
      toastSuccess(t('emails.disabledCount', { count: result.updated }));
    } catch (error) {
      toastError(errorMessage(error, t));
    } finally {
      setDisabling(null);
    }
  }

  return (
    <Stack gap="xl">
      <Stack gap="sm" component="section" aria-labelledby="project-emails-title">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <div>
            <Title order={4} id="project-emails-title">
              {t('emails.projectEmails')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('emails.projectEmailsHint')}
            </Text>
          </div>
          <Button variant="default" color="red" onClick={() => setDisabling({ kind: 'project' })}>
            {t('emails.disableAll')}
          </Button>
        </Group>
        <EmailTemplatesTable
          projectId={project.id}
          set={{ kind: 'project' }}
          caption={t('emails.projectEmails')}
          editPath={(e) => `${base}/edit/${e.id}`}
        />
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="season-emails-title">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <div>
            <Title order={4} id="season-emails-title">
              {t('emails.seasonEmails')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('emails.seasonEmailsHint')}
            </Text>
          </div>
          {season && (
            <Group align="flex-end" wrap="wrap">
              <Select
                label={t('emails.season')}
                value={season.id}
                onChange={chooseSeason}
                data={project.seasons.map((s) => ({ value: s.id, label: s.name }))}
                allowDeselect={false}
                w={220}
              />
              <Button variant="default" onClick={() => setDisabling({ kind: 'season', seasonName: season.name })}>
                {t('emails.disableSeason')}
              </Button>
            </Group>
          )}
        </Group>
        {season ? (
          <EmailTemplatesTable
            key={season.id}
            projectId={project.id}
            set={{ kind: 'season', seasonName: season.name }}
            caption={`${t('emails.seasonEmails')}: ${season.name}`}
            editPath={(e) => `${base}/editSeasonEmail/${season.id}/${e.id}`}
            labelOf={(e) => t('emails.inSeason', { name: e.name, season: season.name })}
          />
        ) : (
          <Text c="dimmed">{t('emails.noSeasons')}</Text>
        )}
      </Stack>

      <ConfirmDialog
        opened={disabling !== null}
        title={disabling?.kind === 'season' ? t('emails.disableSeasonTitle') : t('emails.disableAllTitle')}
        message={
          disabling?.kind === 'season'
            ? t('emails.disableSeasonMessage', { season: disabling.seasonName })
            : t('emails.disableAllMessage', { number: projectEmailTypes.length })
        }
        confirmLabel={disabling?.kind === 'season' ? t('emails.disableSeason') : t('emails.disableAll')}
        busy={disable.isPending}
        onConfirm={() => void confirmDisable()}
        onClose={() => setDisabling(null)}
      />
    </Stack>
  );
}

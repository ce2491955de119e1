import { useState } from 'react';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { reportFormats, type AuditEvent, type CurrentUser, type ReportFormat } from '@pss/contract';
import { Link } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { DataTable, type Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { errorMessage } from '../../lib/api-error';
import { useSession } from '../../lib/session/session-provider';
import { toastError } from '../../lib/toasts';
import { useListTable } from '../../lib/use-list-table';
import { auditPageQueryOptions, downloadAuditLog, projectOptionsQueryOptions } from './audit-api';
import { AuditChanges } from '../../components/audit-changes';
import { hasFilters } from './audit-filters';
import { recordTypeOf, shortId, targetPath } from '../../lib/audit-format';
import { AuditLogFilters } from './audit-log-filters';
import { ActionCell, ActorCell, OutcomeBadge, TimeCell } from '../../components/audit-cells';
import { useAuditLogState } from './use-audit-log-state';
import classes from '../../components/audit.module.css';

/**
 * The Audit log: every recorded event the caller may read (a client administrator only their
 * client's — the API scopes it), newest first, filtered and paged by the address, and the same
 * events as a CSV or XLSX file.
 */
export function AuditLogPage() {
  const { state: session } = useSession();
  // The staff shell renders screens only for a signed-in member (app/route-gates.tsx).
  if (session.status !== 'signed-in') return null;
  return <AuditLog user={session.user} />;
}

function AuditLog({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const state = useAuditLogState();
  const events = useQuery(auditPageQueryOptions(state.filters, state.cursor));
  const projects = useQuery(projectOptionsQueryOptions());
  const projectNames = new Map((projects.data?.items ?? []).map((p) => [p.id, p.name]));
  const superadmin = user.role === 'superadmin';
  const { table } = useListTable(null, events, {
    empty: { none: t('audit.empty'), noMatches: t('audit.noMatches') },
    filtered: hasFilters(state.filters) || state.cursor !== undefined,
  });
  const [exporting, setExporting] = useState<ReportFormat | null>(null);
  const next = events.data?.next_cursor ?? null;

  async function download(format: ReportFormat) {
    setExporting(format);
    try {
      await downloadAuditLog(state.filters, format);
    } catch (error) {
      toastError(errorMessage(error, t));
    } finally {
      setExporting(null);
    }
  }

  const columns: Column<AuditEvent>[] = [
    { key: 'at', header: t('audit.time'), render: (e) => <TimeCell event={e} /> },
    { key: 'actor', header: t('audit.actor'), render: (e) => <ActorCell event={e} /> },
    {
      key: 'action',
      header: t('audit.action'),
      render: (e) => <ActionCell action={e.action} />,
    },
    { key: 'target', header: t('audit.target'), render: (e) => <TargetCell event={e} superadmin={superadmin} /> },
    {
      key: 'project',
      header: t('audit.project'),
      render: (e) =>
        e.project_id ? (
          <Text size="sm" miw={110} title={e.project_id}>
            {projectNames.get(e.project_id) ?? shortId(e.project_id)}
          </Text>
        ) : (
          <Text c="dimmed" span>
            —
          </Text>
        ),
    },
    {
      key: 'outcome',
      header: t('audit.outcome'),
      render: (e) => (
        // The badge's own width: a narrow column would cut its code short.
        <div style={{ minWidth: 'max-content' }}>
          <OutcomeBadge outcome={e.outcome} />
        </div>
      ),
    },
    {
      key: 'changes',
      header: t('audit.changes'),
      render: (e) => (
        <div style={{ minWidth: 340 }}>
          <AuditChanges changes={e.changes} targetType={recordTypeOf(e)} />
        </div>
      ),
    },
  ];

  return (
    <Stack gap={0}>
      <PageHeader
        title={t('audit.title')}
        action={
          <Group gap="xs">
            {reportFormats.map((format) => (
              <Button
                key={format}
                variant="default"
                loading={exporting === format}
                onClick={() => void download(format)}
              >
                {format === 'csv' ? t('audit.exportCsv') : t('audit.exportXlsx')}
              </Button>
            ))}
          </Group>
        }
      />
      <Text c="dimmed" size="sm" mb="md">
        {superadmin ? t('audit.intro') : t('audit.introClient')}
      </Text>
      <AuditLogFilters state={state} user={user} />
      <DataTable caption={t('audit.caption')} columns={columns} getRowId={(e) => e.id} {...table} />
      {(state.depth > 0 || next) && (
        <Group justify="space-between" mt="md" component="nav" aria-label={t('audit.paging.label')}>
          <Text size="sm" c="dimmed" aria-live="polite">
            {state.depth === 0 ? t('audit.paging.first') : t('audit.paging.position', { page: state.depth + 1 })}
          </Text>
          <Group gap="xs">
            <Button variant="default" disabled={state.depth === 0} onClick={state.newest}>
              {t('audit.paging.newest')}
            </Button>
            <Button variant="default" disabled={!state.canGoNewer} onClick={state.newer}>
              {t('audit.paging.newer')}
            </Button>
            <Button variant="default" disabled={!next || events.isFetching} onClick={() => next && state.older(next)}>
              {t('audit.paging.older')}
            </Button>
          </Group>
        </Group>
      )}
    </Stack>
  );
}

/** The record an event is about: its type, and its ID as a link where a screen shows it. */
function TargetCell({ event, superadmin }: { event: AuditEvent; superadmin: boolean }) {
  const { t } = useTranslation();
  if (!event.target) return <Text c="dimmed">—</Text>;
  const known = (['case', 'attempt', 'user', 'project', 'client'] as const).find((type) => type === event.target!.type);
  const path = targetPath(event, superadmin);
  const id = shortId(event.target.id);
  return (
    <div className={classes.nowrap}>
      <Text size="sm">{known ? t(`audit.targetTypes.${known}`) : event.target.type}</Text>
      {path ? (
        <Anchor component={Link} to={path} size="xs" className={classes.mono} title={event.target.id}>
          {id}
        </Anchor>
      ) : (
        <Text size="xs" className={classes.mono} title={event.target.id}>
          {id}
        </Text>
      )}
    </div>
  );
}

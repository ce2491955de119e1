import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Paper,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDeferredValue } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import type { DashboardCase, DashboardProject, ParticipantCertificate } from '@pss/contract';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';
import { cmeProgressLabel, cmeProgressText } from './cme-progress';
import { certificatesQueryOptions, dashboardQueryOptions } from './clinician-api';
import { ProjectCertificates } from './project-certificates';
import { RemindersNotice } from './reminders-notice';
import { useParticipantSession } from './participant-session';
import { SeasonSummaryCard } from './season-summary-card';
import '../../lib/i18n/participant';

/**
 * The participant's dashboard: per project, the results summaries of the seasons they
 * completed, the round, the next case, completed cases, takeaways and CME.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { state } = useParticipantSession();
  const dashboard = useQuery(dashboardQueryOptions());
  const certificates = useQuery(certificatesQueryOptions());
  // The projects' cards are most of the page: rendered as a deferred value, React builds
  // them in slices rather than in the one task the answer arrives in (a query's answer
  // renders at once; components/data-table.tsx does the same with a list's rows).
  const projects = useDeferredValue(dashboard.data?.projects);
  const user = state.status === 'signed-in' ? state.user : null;

  return (
    <Stack gap="lg">
      <Title order={2}>{t('participantPages.welcome', { name: user?.first_name ?? '' })}</Title>
      {user && !user.has_password && (
        <Alert color="blue" title={params.get('welcome') ? t('participantPages.welcomeByLink') : undefined}>
          {t('participantPages.createPasswordOffer')}{' '}
          <Anchor component={Link} to="/create-password" c="blue.9" fw={600}>
            {t('clinician.createPasswordTitle')}
          </Anchor>
        </Alert>
      )}
      {dashboard.error && <Alert color="red" role="alert" title={errorMessage(dashboard.error, t)} />}
      {(dashboard.isPending || (dashboard.data && !projects)) && <Skeleton h={240} />}
      {projects?.length === 0 && <Text>{t('participantPages.noCases')}</Text>}
      {projects?.map((project) => (
        <ProjectCard
          key={project.project_id}
          project={project}
          certificates={certificates.data?.items.filter((c) => c.project_id === project.project_id) ?? []}
        />
      ))}
    </Stack>
  );
}

const statusColor = { NOT_STARTED: 'gray', STARTED: 'blue', IN_PROGRESS: 'blue', COMPLETE: 'teal' } as const;

function ProjectCard({ project, certificates }: { project: DashboardProject; certificates: ParticipantCertificate[] }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={`project-${project.project_id}`}>
      <Stack>
        <div>
          <Title order={3} id={`project-${project.project_id}`}>
            {project.project_name}
          </Title>
          {project.season_name ? (
            <Text size="sm" c="dimmed">
              {t('participantPages.roundInfo', {
                season: project.season_name,
                round: project.round_number,
                end: formatDate(project.round_end_date),
              })}
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              {t('participantPages.noRoundRunning')}
            </Text>
          )}
        </div>
        <RemindersNotice projectId={project.project_id} />
        {project.season_summaries.map((summary) => (
          <SeasonSummaryCard key={summary.id} summary={summary} />
        ))}
        <SimpleGrid cols={{ base: 2, sm: 3 }}>
          <Stat label={t('participantPages.casesUnlocked')} value={project.cases_unlocked} />
          <Stat label={t('participantPages.pendingCases')} value={project.pending_case_count} testId="pending-count" />
          <Stat
            label={t('participantPages.completedCases')}
            value={project.cases.filter((c) => c.status === 'COMPLETE').length}
          />
        </SimpleGrid>
        {project.next_case ? (
          <Paper withBorder p="md" bg="blue.0" data-testid="next-case">
            <Group justify="space-between" wrap="wrap">
              <div>
                <Text size="sm" c="dimmed">
                  {t('participantPages.nextCase')}
                </Text>
                <Text fw={600}>{project.next_case.patient_name}</Text>
                <Text size="sm">{project.next_case.case_name}</Text>
              </div>
              <Button component={Link} to={`/participant/cases/${project.next_case.id}`}>
                {project.next_case.status === 'NOT_STARTED'
                  ? t('participantPages.startCase')
                  : t('participantPages.continueCase')}
              </Button>
            </Group>
          </Paper>
        ) : (
          <Text size="sm">{t('participantPages.allDone')}</Text>
        )}
        <Title order={4}>{t('participantPages.yourCases')}</Title>
        <Stack gap="xs">
          {project.cases.map((c) => (
            <CaseRow key={c.id} item={c} />
          ))}
        </Stack>
        {project.key_takeaways.length > 0 && (
          <>
            <Title order={4}>{t('participantPages.keyTakeaways')}</Title>
            {project.key_takeaways.map((k) => (
              <div key={k.case_name}>
                <Text fw={600} size="sm">
                  {k.case_name}
                </Text>
                <List size="sm">
                  {k.items.map((item) => (
                    <List.Item key={item}>{item}</List.Item>
                  ))}
                </List>
              </div>
            ))}
          </>
        )}
        {(project.cmes.length > 0 || certificates.length > 0) && (
          <>
            <Title order={4}>{t('participantPages.cme')}</Title>
            {project.cmes.map((cme) => (
              <div key={cme.id}>
                <Text size="sm">{cmeProgressText(t, cme)}</Text>
                <Progress
                  value={cme.min_cases ? Math.min(100, (cme.completed_cases / cme.min_cases) * 100) : 100}
                  aria-label={cmeProgressLabel(t, cme)}
                />
              </div>
            ))}
            {certificates.length > 0 && <ProjectCertificates certificates={certificates} />}
          </>
        )}
      </Stack>
    </Paper>
  );
}

function Stat(props: { label: string; value: number; testId?: string }) {
  return (
    <div>
      <Text size="xl" fw={700} data-testid={props.testId}>
        {props.value}
      </Text>
      <Text size="sm" c="dimmed">
        {props.label}
      </Text>
    </div>
  );
}

function CaseRow({ item }: { item: DashboardCase }) {
  const { t } = useTranslation();
  // A case of an ended season that was never submitted can no longer be taken (a submitted one keeps its result).
  const closedUnfinished = item.closed && item.status !== 'COMPLETE';
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" data-testid="dashboard-case">
      <div>
        {item.unlocked ? (
          <Anchor component={Link} to={`/participant/cases/${item.id}`} fw={500}>
            {item.patient_name} — {item.case_name}
          </Anchor>
        ) : (
          <Text fw={500}>
            {item.patient_name} — {item.case_name}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {!item.unlocked
            ? t('participantPages.unlocksOn', { date: formatDate(item.unlocks_on) })
            : closedUnfinished
              ? t('participantPages.closedOn', { season: item.season_name, date: formatDate(item.closes_on) })
              : t('participantPages.roundN', { season: item.season_name, round: item.round_number })}
        </Text>
      </div>
      <Group gap="xs">
        {item.score !== null && <Text fw={600}>{item.score}%</Text>}
        <Badge variant="outline" color={closedUnfinished ? 'gray.8' : `${statusColor[item.status]}.9`}>
          {closedUnfinished ? t('participantPages.closedBadge') : t(`participantPages.status.${item.status}`)}
        </Badge>
      </Group>
    </Group>
  );
}

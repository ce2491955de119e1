import { useMemo, useState } from 'react';
import { Alert, Code, Group, Paper, Select, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { QueryError } from '../../components/query-error';
import { emailTextsFit, type EmailPreviewBody } from '@pss/contract';
import type { EmailForm } from './email-form';
import { previewParticipantsQueryOptions, previewQueryOptions } from './emails-api';
import { PlaceholderWarnings } from './placeholder-warnings';

/** Typing pauses this long before the preview is rendered again. */
const PREVIEW_DEBOUNCE_MS = 500;
/** The picker's value for "no participant": the server fills a sample participant's details. */
const SAMPLE = 'sample';

/**
 * The email as a participant would get it, rendered by the server from the texts on screen
 * (saved or not): the subject, the HTML part in a sandboxed frame (no scripts, no
 * navigation, its own origin) and the plain-text part.
 */
export function EmailPreview(props: { projectId: string; emailId: string; values: EmailForm }) {
  const { t } = useTranslation();
  const [participantId, setParticipantId] = useState<string>(SAMPLE);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const participants = useQuery(previewParticipantsQueryOptions(props.projectId, debouncedSearch));

  const texts = useMemo(
    () => ({
      subject: props.values.subject,
      body: props.values.body,
      button_text: props.values.button_text,
      dashboard_url_text: props.values.dashboard_url_text,
    }),
    [props.values.subject, props.values.body, props.values.button_text, props.values.dashboard_url_text],
  );
  const [debouncedTexts] = useDebouncedValue(texts, PREVIEW_DEBOUNCE_MS);
  const body: EmailPreviewBody = { ...debouncedTexts, participant_id: participantId === SAMPLE ? null : participantId };
  // Texts the server would refuse (an unknown placeholder) are not sent; the fields say why.
  const valid = emailTextsFit(debouncedTexts);
  const preview = useQuery(previewQueryOptions(props.emailId, body, valid));
  const data = valid ? preview.data : undefined;

  // The chosen participant stays in the list while another search is typed.
  const [chosenLabel, setChosenLabel] = useState<string | null>(null);
  const options = [
    { value: SAMPLE, label: t('emails.sampleParticipant') },
    ...(participants.data?.items ?? []).map((p) => ({
      value: p.user_id,
      label: `${p.last_name}, ${p.first_name} (${p.email})`,
    })),
  ];
  if (participantId !== SAMPLE && chosenLabel && !options.some((o) => o.value === participantId))
    options.push({ value: participantId, label: chosenLabel });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="email-preview-title">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <div>
            <Title order={4} id="email-preview-title">
              {t('emails.preview')}
            </Title>
            <Text size="xs" c="dimmed">
              {t('emails.previewUnsaved')}
            </Text>
          </div>
          <Select
            label={t('emails.previewAs')}
            data={options}
            value={participantId}
            onChange={(value, option) => {
              setParticipantId(value ?? SAMPLE);
              setChosenLabel(value && value !== SAMPLE ? (option?.label ?? null) : null);
            }}
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            filter={({ options: all }) => all}
            nothingFoundMessage={t('emails.logNoMatches')}
            allowDeselect={false}
            w={280}
            maw="100%"
          />
        </Group>
        {!valid ? (
          <Alert color="orange" data-testid="preview-invalid">
            {t('emails.previewFixFirst')}
          </Alert>
        ) : preview.error ? (
          <QueryError error={preview.error} onRetry={() => void preview.refetch()} />
        ) : !data ? (
          <Skeleton h={420} />
        ) : (
          <Stack gap="xs" aria-busy={preview.isFetching} data-testid="email-preview">
            <Text size="xs" c="dimmed">
              {data.participant
                ? t('emails.previewFor', {
                    name: `${data.participant.first_name} ${data.participant.last_name}`,
                    email: data.participant.email,
                  })
                : t('emails.previewForSample')}
            </Text>
            <PlaceholderWarnings warnings={data.warnings} title={t('emails.previewWarnings')} />
            <Text fw={600} data-testid="preview-subject" style={{ overflowWrap: 'anywhere' }}>
              {t('emails.previewSubject', { subject: data.subject })}
            </Text>
            <Tabs defaultValue="html" keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="html">{t('emails.previewHtml')}</Tabs.Tab>
                <Tabs.Tab value="text">{t('emails.previewText')}</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="html" pt="xs">
                {/* A new frame for each rendering: Chromium does not always load a changed srcdoc into a sandboxed frame. */}
                <iframe
                  key={preview.dataUpdatedAt}
                  title={t('emails.previewFrame')}
                  sandbox=""
                  srcDoc={data.html}
                  style={{
                    width: '100%',
                    height: 480,
                    border: '1px solid var(--mantine-color-gray-3)',
                    borderRadius: 4,
                  }}
                />
              </Tabs.Panel>
              <Tabs.Panel value="text" pt="xs">
                <Code block data-testid="preview-text" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {data.text}
                </Code>
              </Tabs.Panel>
            </Tabs>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

import { List, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { ANSWER_TAG_HEADERS, KEY_TAKEAWAY_HEADERS, MAX_KEY_TAKEAWAYS, type KeyTakeaway } from '@pss/contract';
import { errorMessage } from '../../lib/api-error';
import { useCaseHome } from '../../lib/case-home';
import { answerTagsQueryOptions, keyTakeawaysQueryOptions } from './elements-api';
import { ElementsUpload } from './elements-upload';

/**
 * Participant Dashboard Content: the key takeaways and answer tags participants see with the
 * cases of a project (or of a module library, carried into projects with its cases).
 */
export function ElementsPage() {
  const { t } = useTranslation();
  const home = useCaseHome();
  const takeaways = useQuery(keyTakeawaysQueryOptions(home));
  const tags = useQuery(answerTagsQueryOptions(home));

  const byCase = new Map<string, KeyTakeaway[]>();
  for (const k of takeaways.data?.items ?? []) byCase.set(k.case_id, [...(byCase.get(k.case_id) ?? []), k]);

  return (
    <Stack gap="lg">
      <div>
        <Title order={3}>{t('elements.title')}</Title>
        <Text size="sm" c="dimmed">
          {home.kind === 'project' ? t('elements.helpProject') : t('elements.helpModule')}
        </Text>
      </div>

      <Paper withBorder p="lg" component="section" aria-labelledby="key-takeaways-title">
        <Stack>
          <Title order={4} id="key-takeaways-title">
            {t('elements.keyTakeaways')}
          </Title>
          <Text size="sm">{t('elements.keyTakeawaysHelp', { max: MAX_KEY_TAKEAWAYS })}</Text>
          <ElementsUpload home={home} kind="SUMMARY" columns={KEY_TAKEAWAY_HEADERS.join(', ')} />
          {takeaways.error && <Text c="red.8">{errorMessage(takeaways.error, t)}</Text>}
          {takeaways.isPending ? (
            <Skeleton h={60} />
          ) : byCase.size === 0 ? (
            <Text size="sm" c="dimmed">
              {t('elements.noKeyTakeaways')}
            </Text>
          ) : (
            [...byCase.values()].map((items) => (
              <Stack key={items[0]!.case_id} gap={4} data-testid="case-takeaways">
                <Text fw={600}>{items[0]!.case_name}</Text>
                <List type="ordered" size="sm">
                  {items.map((k) => (
                    <List.Item key={k.position}>{k.text}</List.Item>
                  ))}
                </List>
              </Stack>
            ))
          )}
        </Stack>
      </Paper>

      <Paper withBorder p="lg" component="section" aria-labelledby="answer-tags-title">
        <Stack>
          <Title order={4} id="answer-tags-title">
            {t('elements.answerTags')}
          </Title>
          <Text size="sm">{t('elements.answerTagsHelp')}</Text>
          <ElementsUpload home={home} kind="ANSWER_TAGS" columns={ANSWER_TAG_HEADERS.join(', ')} />
          {tags.error && <Text c="red.8">{errorMessage(tags.error, t)}</Text>}
          {(tags.data?.items.length ?? 0) === 0 ? (
            <Text size="sm" c="dimmed">
              {t('elements.noAnswerTags')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table>
                <Table.Caption>{t('elements.answerTags')}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('elements.case')}</Table.Th>
                    <Table.Th>{t('elements.question')}</Table.Th>
                    <Table.Th>{t('elements.answer')}</Table.Th>
                    <Table.Th>{t('elements.tag')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {tags.data!.items.map((row) => (
                    <Table.Tr key={`${row.choice_id}:${row.tag}`}>
                      <Table.Td>{row.case_name}</Table.Td>
                      <Table.Td>{row.question}</Table.Td>
                      <Table.Td>{row.answer}</Table.Td>
                      <Table.Td>{row.tag}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

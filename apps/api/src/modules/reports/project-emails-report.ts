import { emailTypeDescriptors } from '@pss/contract';
import type { Cell, Column, Table } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { PAGE, personCells, personColumns, type ReportContext } from './report-context.js';
import { groupBy } from './report-rows.js';

/**
 * The project's emails report: a row per participant, with how many of each email type the
 * project sent them (a season's variant counts with its type), a column per type in the Emails
 * screen's order — so a new email type has its column without a word here.
 */
export function projectEmailsReport(context: ReportContext) {
  const { reports, projectFor, fileName, pagesOf } = context;

  return {
    async projectEmails(caller: AccessClaims, projectId: string): Promise<Table> {
      const project = await projectFor(caller, projectId);
      const columns: Column[] = [
        ...personColumns,
        ...emailTypeDescriptors.map((d): Column => ({ header: d.name, kind: 'number' })),
        { header: 'Not delivered', kind: 'number' },
        { header: 'Last sent (UTC)', kind: 'datetime', width: 20 },
      ];
      async function* rows(): AsyncGenerator<Cell[][]> {
        const pages = pagesOf(projectId, { requirement: null, limit: PAGE }, async (people) =>
          groupBy(
            await reports.emailsOf(
              projectId,
              people.map((p) => p.userId),
            ),
            (e) => e.userId,
          ),
        );
        for await (const { people, data } of pages) {
          yield people.map((person) => {
            const emails = data.get(person.userId) ?? [];
            const last = emails.reduce<Date | null>(
              (latest, e) => (e.lastSent && (!latest || e.lastSent > latest) ? e.lastSent : latest),
              null,
            );
            return [
              ...personCells(person),
              ...emailTypeDescriptors.map((d) => emails.find((e) => e.type === d.type)?.sent ?? 0),
              emails.reduce((sum, e) => sum + e.undelivered, 0),
              last,
            ];
          });
        }
      }
      return { title: 'Project emails', fileName: fileName(project, 'project-emails'), columns, rows: rows() };
    },
  };
}

import type { ItemAnalysisRow } from '@pss/contract';
import type { Cell, Column, Table } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ReportContext } from './report-context.js';

const share = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 10);

/** The item analysis of a season's published cases as a file: the rows of `GET /statistics/{id}/item-analysis`. */
export function itemAnalysisReport(context: ReportContext) {
  const { deps, projectFor, fileName } = context;

  return {
    async itemAnalysis(caller: AccessClaims, projectId: string, seasonName: string): Promise<Table> {
      const project = await projectFor(caller, projectId);
      // The statistics service checks the caller and the season again and answers the rows.
      const { items } = await deps.statistics.itemAnalysis(caller, projectId, seasonName);
      const season = project.seasons.find((s) => s.name.toLowerCase() === seasonName.toLowerCase()) ?? null;
      const columns: Column[] = [
        { header: 'Round', kind: 'number' },
        { header: 'Case', width: 30 },
        { header: 'Question', kind: 'number' },
        { header: 'Question text', width: 40 },
        { header: 'Choice', width: 30 },
        { header: 'Marked as', width: 12 },
        { header: 'Completed attempts', kind: 'number' },
        { header: 'Chosen', kind: 'number' },
        { header: 'Chosen (%)', kind: 'number' },
        { header: 'Full marks (%)', kind: 'number' },
        { header: 'Discrimination', kind: 'number' },
        { header: 'Change since the first round (points)', kind: 'number' },
        { header: 'Flags', width: 30 },
      ];
      const cells = (r: ItemAnalysisRow): Cell[] => [
        r.round_number,
        r.case_name,
        r.question_position,
        r.question_text,
        r.choice_text,
        r.marked_as,
        r.attempts,
        r.chosen,
        share(r.chosen_rate),
        share(r.difficulty),
        r.discrimination === null ? null : Math.round(r.discrimination * 1000) / 1000,
        share(r.change),
        r.flags.join(' '),
      ];
      async function* rows(): AsyncGenerator<Cell[][]> {
        yield items.map(cells);
      }
      return { title: 'Item analysis', fileName: fileName(project, 'item-analysis', season), columns, rows: rows() };
    },
  };
}

import type { FastifyInstance } from 'fastify';
import { surveyRoutes } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { contractRoutes } from '../../lib/contract-routes.js';
import type { SurveysService } from './surveys.service.js';

const tags = ['Survey templates'];
const isolation =
  'A client administrator sees templates no project uses and those their own client’s projects use; one used ' +
  'only by other clients’ projects answers 404 NOT_FOUND.';

export function registerSurveysRoutes(app: FastifyInstance, service: SurveysService): void {
  const implement = contractRoutes(app);

  implement(
    surveyRoutes.list,
    {
      tags,
      summary:
        'List survey templates (paged; `search` by name; `client`, `project`; `filter` `{"type", "client_id", "project_id"}`)',
      description:
        'Sortable by name, type, updated_at, created_at. A template belongs to no client: a template of a client is ' +
        'one a project of that client uses (for any moment), a template of a project one that project uses. ' +
        '`client` (or `filter.client_id`): the templates of that client; `project` (or `filter.project_id`): those ' +
        'of that project; both: of that project, when it is that client’s (else none). A parameter and the filter ' +
        'key it stands for must agree (VALIDATION_ERROR otherwise); an id that is not a UUID: VALIDATION_ERROR. ' +
        'An id of no client or project, or (for a client administrator) of another client or its project, lists ' +
        `nothing. ${isolation}`,
    },
    async (request) => service.list(caller(request), request.query),
  );

  implement(
    surveyRoutes.create,
    {
      tags,
      summary: 'Create a survey template from a name and a type (START_NEW, START_RETURNING, REVIEW, END)',
      description:
        '`pages` (optional) hold components: `{"kind": "QUESTION", "type": MULTI_ONE|MULTI_MANY|DROPDOWN|TEXT|' +
        'TYPE_AHEAD, "text", "required", "choices": [{"text"}], "allow_other", "allow_none_of_below"}` or ' +
        '`{"kind": "INFO_REVIEW", "text"}`. Refused: an info review in a START_NEW template ' +
        '(START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED), two pages of one name, regardless of case (PAGE_NAME_NOT_UNIQUE, ' +
        'naming the page), no page, or a page without a question or info review (SURVEY_EMPTY, 422, on `body.pages` ' +
        'or `body.pages.N.components`: participants would see an empty page), a blank page name, question or ' +
        'choice, or a choice question with fewer than two choices (VALIDATION_ERROR); each names its field ' +
        '(`body.pages.1.name`).',
    },
    async (request) => service.create(caller(request), request.body),
  );

  implement(
    surveyRoutes.remove,
    {
      tags,
      summary: 'Delete survey templates: `filter` is a JSON selection (`{"ids": […]}` or `{"all": true, …}`)',
      description:
        'All or nothing: when any selected template is used by a project or was answered, nothing is deleted ' +
        '(SURVEY_ATTACHED_DELETE_FORBIDDEN, `details.templates` naming them). An id that does not exist: 404 NOT_FOUND.',
    },
    async (request) => service.remove(caller(request), request.query.filter),
  );

  implement(
    surveyRoutes.get,
    { tags, summary: 'A survey template with its pages and components', description: isolation },
    async (request) => service.get(caller(request), request.params.id),
  );

  implement(
    surveyRoutes.update,
    {
      tags,
      summary: 'Save a survey template whole (name, type, pages)',
      description:
        'The rules of creating, and: a template a project uses, or one participants have answered, cannot change ' +
        'at all — name, type, pages or components (409 SURVEY_ALREADY_ATTACHED, nothing written; `details.projects` ' +
        'names the projects that use it). Choosing another template in every project that uses it frees it again ' +
        '(unless answered); a duplicate is always free. Ids of pages, components and choices sent back are kept; ' +
        'missing ones are made.',
    },
    async (request) => service.update(caller(request), request.params.id, request.body),
  );

  implement(
    surveyRoutes.duplicate,
    {
      tags,
      summary: 'Duplicate a survey template (`name` optional: "<name> (copy)")',
      description: 'The copy has new ids throughout, is used by no project and has no answers, so it can be edited.',
    },
    async (request) => service.duplicate(caller(request), request.params.id, request.body?.name),
  );

  implement(
    surveyRoutes.projects,
    {
      tags,
      summary: 'The projects that use a survey template, and for which type',
      description: `A client administrator sees only their own client’s projects. ${isolation}`,
    },
    async (request) => service.linkedProjects(caller(request), request.params.id),
  );

  implement(
    surveyRoutes.answer,
    {
      tags,
      summary: 'A participant answers a survey on one of their UserSeasonRoundCases',
      description:
        'The template must be one the case’s project uses (404 NOT_FOUND otherwise, and for anyone else’s case). ' +
        'Answers are checked against it: a component not among its questions, a choice not in the question, two ' +
        'choices for a single-answer question, text where none is taken (VALIDATION_ERROR on `body.answers.N…`). ' +
        '`complete: false` keeps the answers so far; `complete` (the default) also needs every required question ' +
        '(VALIDATION_ERROR naming `components.<id>`) and records the survey once: afterwards CHANGES_FORBIDDEN. ' +
        'REVIEW needs the case submitted and END every case of the season (CASES_NOT_COMPLETED); START_NEW is for ' +
        'participants new to the platform and START_RETURNING for those assigned to an earlier season ' +
        '(INCORRECT_TEMPLATE_TYPE otherwise).',
    },
    async (request) =>
      service.answer(caller(request), request.params.id, request.params.userSeasonRoundCaseId, request.body),
  );

  implement(
    surveyRoutes.getProjectSurvey,
    {
      tags,
      summary: 'A project’s survey templates: one per type, each an id or null',
      description: 'Another client’s project: 404 PROJECT_NOT_FOUND.',
    },
    async (request) => service.projectSurvey(caller(request), request.params.id),
  );

  implement(
    surveyRoutes.setProjectSurvey,
    {
      tags,
      summary: 'Choose a project’s survey templates (`start_new_template_id`, `start_returning_template_id`, …)',
      description:
        'Each field a template of its own type or null (a field left out stays as it is). A template of another ' +
        'type: INCORRECT_TEMPLATE_TYPE naming the field; an unknown template, or one the caller may not see: ' +
        '404 NOT_FOUND; a newly chosen template without a page, or with a page without a question or info review: ' +
        '422 SURVEY_EMPTY naming the field (one chosen earlier may stay). A chosen template cannot be edited ' +
        '(SURVEY_ALREADY_ATTACHED) until no project uses it. Answers already given stay with the template they ' +
        'answered.',
    },
    async (request) => service.setProjectSurvey(caller(request), request.params.id, request.body),
  );

  implement(
    surveyRoutes.due,
    {
      tags,
      summary: 'The surveys due around one of the caller’s cases (each null when none is)',
      description:
        '`start`: before the season’s first case, START_NEW for a participant new to the platform or ' +
        'START_RETURNING for one assigned to an earlier season, until one is complete in the season; `review`: ' +
        'once the case is submitted; `end`: once every case of the season is complete. Each carries the answers ' +
        'saved so far, and the caller’s details when a page reviews them. Another participant’s case: 404.',
    },
    async (request) => service.due(caller(request), request.params.userSeasonRoundCaseId),
  );

  implement(
    surveyRoutes.endSurvey,
    {
      tags,
      summary: 'Whether the season’s END survey is due after this case (every case of the season complete)',
      description: 'A case of another project, or another participant’s: 404 NOT_FOUND.',
    },
    async (request) =>
      service.endSurvey(caller(request), request.params.userSeasonRoundCaseId, request.params.projectId),
  );
}

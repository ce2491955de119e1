/**
 * The Module Library and the elements (disease types, question categories): administrators'
 * texts, assembled with the others in ../admin-texts.ts.
 */

export const modules = {
  title: 'Module Library',
  new: 'New module library',
  newTitle: 'New module library',
  editTitle: 'Edit module library',
  name: 'Name',
  description: 'Description',
  cases: 'Cases',
  updatedAt: 'Updated',
  searchPlaceholder: 'Module name',
  empty: 'No module libraries yet. Create one with "New module library".',
  noMatches: 'No module libraries match this search.',
  diseaseTypes: 'Disease types',
  questionCategories: 'Question categories',
  catalogueHelp: 'Pick from the list or type a new name and press Enter.',
  saved: 'Module library "{{name}}" saved.',
  deleted: 'Module library "{{name}}" deleted.',
  deleteTitle: 'Delete module library',
  deleteMessage: 'Delete "{{name}}"? It must have no cases left.',
  catalogues: 'Disease types: {{diseases}} · Question categories: {{categories}}',
  sectionsNav: 'Module library sections',
  sections: { cases: 'Cases', elements: 'Elements', projects: 'Projects using it' },
  project: 'Project',
  client: 'Client',
  copiedCases: 'Copied cases',
  projectsHelp: 'Projects holding copies of this module’s cases.',
  noProjects: 'No project holds a copy of this module’s cases yet.',
};

export const elements = {
  title: 'Participant Dashboard Content',
  helpProject:
    'What participants see beside this project’s cases. Cases copied from a module library keep the module’s elements; change those in the module.',
  helpModule: 'Elements of this module’s cases; copies in projects carry them along.',
  keyTakeaways: 'Key takeaways',
  keyTakeawaysHelp:
    'The points a participant takes away from each case, in order, at most {{max}} per case. An upload replaces the key takeaways of the cases it names.',
  answerTags: 'Answer tags',
  answerTagsHelp:
    'Labels on answer choices (question and answer as the case words them). An upload replaces the tags of the cases it names.',
  format: 'A CSV file with the columns',
  file: 'CSV file of {{kind}}',
  upload: 'Upload {{kind}}',
  kinds: { SUMMARY: 'key takeaways', ANSWER_TAGS: 'answer tags' },
  noKeyTakeaways: 'No key takeaways yet.',
  noAnswerTags: 'No answer tags yet.',
  case: 'Case',
  question: 'Question',
  answer: 'Answer',
  tag: 'Tag',
};

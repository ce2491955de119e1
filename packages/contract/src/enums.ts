import { z } from 'zod';
import {
  caseOrigins,
  caseStatuses,
  dataStatuses,
  feedbackTypes,
  importJobKinds,
  importJobStates,
  markedAsValues,
  participantRoles,
  professions,
  progressStatuses,
  projectStatuses,
  resourceAttachmentStatuses,
  resourceSourceTypes,
  seasonSummaryStatuses,
  sortDirections,
  staffRoles,
  storedCaseStatuses,
  surveyTemplateTypes,
  questionTypes,
  userRoles,
} from './enum-values.js';

/** The enumerations' schemas (their values: ./enum-values.ts). */
export * from './enum-values.js';

export const ParticipantRole = z.enum(participantRoles);
export type ParticipantRole = z.infer<typeof ParticipantRole>;
export const UserRole = z.enum(userRoles);
export type UserRole = z.infer<typeof UserRole>;
export const StaffRole = z.enum(staffRoles);
export type StaffRole = z.infer<typeof StaffRole>;
export const Profession = z.enum(professions);
export type Profession = z.infer<typeof Profession>;
export const ProjectStatus = z.enum(projectStatuses);
export const DataStatus = z.enum(dataStatuses);
export const StoredCaseStatus = z.enum(storedCaseStatuses);
export type StoredCaseStatus = z.infer<typeof StoredCaseStatus>;
export const CaseStatus = z.enum(caseStatuses);
export const CaseOrigin = z.enum(caseOrigins);
export const FeedbackType = z.enum(feedbackTypes);
export const QuestionType = z.enum(questionTypes);
export const MarkedAs = z.enum(markedAsValues);
export const ResourceSourceType = z.enum(resourceSourceTypes);
export const ResourceAttachmentStatus = z.enum(resourceAttachmentStatuses);
export const SurveyTemplateType = z.enum(surveyTemplateTypes);
export const SeasonSummaryStatus = z.enum(seasonSummaryStatuses);
export const ImportJobKind = z.enum(importJobKinds);
export const ImportJobState = z.enum(importJobStates);
export const ProgressStatus = z.enum(progressStatuses);
export const SortDirection = z.enum(sortDirections);
export type SortDirection = z.infer<typeof SortDirection>;

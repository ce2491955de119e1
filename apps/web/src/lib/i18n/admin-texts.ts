import { resources } from './admin-areas/resources';
import { clients, cap, projects } from './admin-areas/clients';
import { security, users } from './admin-areas/users';
import { participants, cmes, certificates } from './admin-areas/participants';
import { cases, previews } from './admin-areas/cases';
import { modules, elements } from './admin-areas/module-library';
import { seasonSummaries, progress } from './admin-areas/progress';
import { emails } from './admin-areas/emails';
import { surveys } from './admin-areas/surveys';
import { audit } from './admin-areas/audit';

/**
 * The texts of the administrators' screens: they come with the signed-in staff shell
 * (app/route-gates.tsx), so the sign-in screen and the participants' side do not carry them.
 * One file an area (./admin-areas/), assembled here: the sections, their keys and their order
 * are those the screens look up.
 */
export const adminTexts = {
  resources,
  clients,
  cap,
  projects,
  users,
  security,
  participants,
  cmes,
  certificates,
  cases,
  modules,
  elements,
  seasonSummaries,
  previews,
  progress,
  emails,
  surveys,
  audit,
};

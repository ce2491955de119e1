import { librarySetup } from './library-calls.js';

/**
 * The module library tests' context and calls (module-library*.test.ts): importing them
 * registers the beforeAll that builds the test file's own context, and the afterAll that
 * closes it (each test file imports its modules afresh).
 */
const setup = librarySetup();
export const { ctx, f, call, newProject, projectA, newModule, createModuleCase, createProjectCase, getCase } = setup;
export const { setStatus, projectCases, moduleCases, caseCount, moduleCount } = setup;

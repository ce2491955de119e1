import { registerTexts } from './index';
import { caseTexts } from './case-texts';

// Imported for its effect by every module that shows a case or a survey (texts-split.test.ts
// checks it): their texts arrive with them.
registerTexts(caseTexts);

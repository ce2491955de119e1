import { registerTexts } from './index';
import { participantPageTexts } from './participant-page-texts';

// Imported for its effect by every module that shows a participant's own screen
// (texts-split.test.ts checks it): their texts arrive with them.
registerTexts(participantPageTexts);

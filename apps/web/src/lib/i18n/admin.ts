import { adminTexts } from './admin-texts';
import { registerTexts } from './index';

// Imported for its effect by the staff shell (app/route-gates.tsx): the administrators' texts
// arrive with the first staff screen.
registerTexts(adminTexts);

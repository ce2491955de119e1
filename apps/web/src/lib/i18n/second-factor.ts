import { registerTexts } from './index';
import { secondFactorTexts } from './second-factor-texts';

// Imported for its effect by the second factor's screens (features/auth/second-factor): their texts
// arrive with them.
registerTexts(secondFactorTexts);

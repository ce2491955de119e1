import { registerTexts } from './index';
import { accountPageTexts } from './account-page-texts';

// Imported for its effect by the account pages (unlock, signed out, not authorized): their
// texts arrive with them.
registerTexts(accountPageTexts);

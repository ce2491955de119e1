import { registerTexts } from './index';
import { certificateTexts } from './certificate-texts';

// Imported for its effect by the modules that show a certificate to a participant or to anyone
// (the dashboard's certificates, the verification page): their texts arrive with them.
registerTexts(certificateTexts);

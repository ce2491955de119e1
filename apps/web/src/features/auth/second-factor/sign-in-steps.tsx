import type { LoginResponse, SecondFactorChallenge, SecondFactorEnrolmentRequired } from '@pss/contract';
import { ApiError, errorMessage } from '../../../lib/api-error';
import { t } from '../../../lib/i18n';
import '../../../lib/i18n/second-factor';
import EnrolmentStep from './enrolment-step';
import SecondFactorStep from './second-factor-step';

/**
 * What the sign-in form fetches when a sign-in needs more than the password: the second step,
 * the enrolment a role requires, and a passkey sign-in. One module, so the form names one file
 * to fetch for all of them and carries none of their code or words.
 */

export type Halfway = SecondFactorChallenge | SecondFactorEnrolmentRequired;

/** The step a password sign-in left a member at. */
export default function HalfwaySignIn(props: {
  halfway: Halfway;
  onSignedIn(session: LoginResponse): void;
  onBack(): void;
}) {
  return 'mfa_required' in props.halfway ? (
    <SecondFactorStep step={props.halfway} onSignedIn={props.onSignedIn} onBack={props.onBack} />
  ) : (
    <EnrolmentStep step={props.halfway} onSignedIn={props.onSignedIn} onBack={props.onBack} />
  );
}

export { signInWithPasskey } from './second-factor-api';

/** What to tell someone whose passkey sign-in failed: the API's refusal, or that the prompt was dismissed. */
export function passkeyFailure(error: unknown): string {
  return error instanceof ApiError ? errorMessage(error, t) : t('mfa.passkeyFailed');
}

/**
 * The second factor's texts: the sign-in's second step, setting one up, the Security page.
 * They come with the second factor's screens (./second-factor.ts), not with the sign-in form,
 * which shows a second step only when a sign-in asks for one.
 */
export const secondFactorTexts = {
  mfa: {
    title: 'Two-step sign-in',
    codeIntro: 'Enter the six-digit code your authenticator app shows for this account.',
    recoveryIntro: 'Enter one of the recovery codes you saved when you set up two-step sign-in. Each works once.',
    codeLabel: 'Code from your authenticator app',
    recoveryLabel: 'Recovery code',
    verify: 'Verify',
    useRecovery: 'Use a recovery code instead',
    useApp: 'Use the authenticator app instead',
    usePasskey: 'Use a passkey',
    passkeyFailed: 'The passkey was not used. Try again, or sign in another way.',
    back: 'Back to sign-in',
    enrolTitle: 'Set up two-step sign-in',
    enrolIntro:
      'Your role signs in with a second factor as well as the password. Set one up now: an authenticator app on your phone, or a passkey on this device.',
    chooseApp: 'Authenticator app',
    choosePasskey: 'Passkey',
    scanIntro:
      'Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…), or type the key below into it. Then enter the code it shows.',
    qrAlt: 'QR code to add this account to an authenticator app',
    secretLabel: 'Key',
    confirm: 'Confirm',
    passkeyName: 'Passkey name',
    passkeyNameDefault: 'Passkey',
    addPasskey: 'Add a passkey',
    codesTitle: 'Save your recovery codes',
    codesIntro:
      'If you lose your phone or passkey, each of these codes signs you in once. They are shown only now: keep them somewhere safe.',
    codesListLabel: 'Recovery codes',
    copyCodes: 'Copy the codes',
    copied: 'Copied',
    codesSaved: 'I have saved these codes',
    continue: 'Continue',
  },
};

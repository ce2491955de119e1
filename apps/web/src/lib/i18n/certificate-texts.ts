/**
 * The texts of CME certificates on the public side: the participant's certificates on their
 * dashboard and the public page that checks a code. They come with those components
 * (./certificate.ts), not with the first screen, which stays within its budget.
 */
export const certificateTexts = {
  participantCertificates: {
    earned: 'Certificate earned on {{date}} — code {{code}}',
    revoked: 'Certificate revoked on {{date}} — code {{code}}',
    download: 'Download certificate (PDF)',
    downloadOf: 'Download the certificate for {{credits}} (PDF)',
    check: 'Check it online',
    failed: 'The certificate could not be downloaded. Please try again.',
  },
  verify: {
    title: 'Check a CME certificate',
    help: 'Enter the code printed on the certificate (five groups of four letters and digits).',
    code: 'Certificate code',
    check: 'Check',
    invalidCode: 'This is not a certificate code: it has five groups of four letters and digits.',
    notFound: 'No certificate has this code. Check the code and try again.',
    valid: 'Valid certificate',
    revoked: 'This certificate was revoked on {{date}}',
    issuedTo: 'Issued to',
    project: 'Programme',
    credits: 'CME credits',
    mocPoints: 'MOC points',
    courseId: 'Course ID',
    issuedOn: 'Issued on',
    another: 'Check another code',
  },
};

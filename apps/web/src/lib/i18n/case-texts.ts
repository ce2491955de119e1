/**
 * The texts of a case and a survey as a participant answers them and gets them back (the
 * participants' case and survey screens, and the administrators' previews, which show the
 * same). They come with the components that show them (./case.ts), not with the first screen:
 * the sign-in screens show no case.
 */
export const caseTexts = {
  common: {
    // A case as a participant sees, answers and gets it back: previews, the participant side, the editor.
    caseView: {
      patientImageAlt: 'Patient photo',
      age: 'Age {{age}}',
      reasonForEncounter: 'Reason for encounter',
      testResults: 'Test results',
      answerTags: 'Tags of your answer:',
      explanation: 'Explanation',
      references: 'References',
      questionN: 'Question {{n}}',
      marks: { NECESSARY: 'Necessary', APPROPRIATE: 'Appropriate', UNNECESSARY: 'Unnecessary' },
      other: 'Other',
      chooseAnswer: 'Choose an answer',
      otherText: 'Question {{n}}: your other answer',
      noneOfBelow: 'None of the below',
      answerRequired: 'This question needs an answer.',
      scoreLabel: 'Score {{score}} percent',
      yourAnswer: 'Answer:',
      noAnswer: 'Not answered',
      necessaryMissed: 'Necessary choices missed',
      unnecessaryChosen: 'Unnecessary choices chosen',
      allRight: 'All necessary choices picked, nothing unnecessary.',
      // What a choice's chip looks like: filled when it was chosen, outlined when not.
      legend: 'Each choice is shown with how the author marked it.',
      legendChosen: 'Filled: chosen',
      legendNotChosen: 'Outlined: not chosen',
      chosen: '(chosen)',
    }, // A survey as a participant answers it (the builder's preview shows the same).
    survey: {
      empty: 'This survey has no pages yet.',
      pageOf: 'Page {{n}} of {{total}}: {{name}}',
      back: 'Back',
      next: 'Next page',
      submit: 'Submit survey',
      submitPreview: 'Submit (preview: nothing is sent)',
      infoReview: 'Your details',
      correct: 'Save correction',
      corrected: 'Saved.',
      profile: {
        salutation: 'Salutation',
        first_name: 'First name',
        last_name: 'Last name',
        display_name: 'Display name',
        profession: 'Profession',
        specialty: 'Specialty',
        facility: 'Facility',
        npi: 'NPI',
        practice_number: 'Practice number',
        mobile_number: 'Mobile number',
      },
    },
  },
};

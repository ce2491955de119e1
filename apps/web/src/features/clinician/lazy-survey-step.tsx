import { lazy, Suspense, type ComponentProps } from 'react';
import { Skeleton } from '@mantine/core';

/**
 * A survey is due on few visits to the case screen (before a season's first case, after a
 * case), and its form brings the table of grid questions: it loads when one is due.
 */
const SurveyStepForm = lazy(async () => ({ default: (await import('./survey-step')).SurveyStep }));

export function SurveyStep(props: ComponentProps<typeof SurveyStepForm>) {
  return (
    <Suspense fallback={<Skeleton h={300} />}>
      <SurveyStepForm {...props} />
    </Suspense>
  );
}

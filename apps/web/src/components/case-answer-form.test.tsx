import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import type { CaseForParticipant } from '@pss/contract';
import { emptyAnswer, QuestionInput } from './case-answer-form';

// env="test" turns off Mantine's transitions, so a dropdown opens at once.
const wrapper = ({ children }: { children: ReactNode }) => <MantineProvider env="test">{children}</MantineProvider>;

type Question = CaseForParticipant['questions'][number];
const question = (type: Question['type']): Question => ({
  id: '00000000-0000-4000-8000-000000000001',
  grouper_id: null,
  type,
  text: 'Which test first?',
  text_before: '',
  required: true,
  choices: [
    { id: '00000000-0000-4000-8000-0000000000a1', text: 'Lactate' },
    { id: '00000000-0000-4000-8000-0000000000a2', text: 'Blood cultures' },
  ],
  allow_other: false,
  allow_none_of_below: false,
});

describe('the answer inputs that open a list', () => {
  it('loads a dropdown question on demand and answers it with the chosen choice', async () => {
    const onChange = vi.fn();
    render(<QuestionInput index={0} question={question('DROPDOWN')} answer={emptyAnswer} onChange={onChange} />, {
      wrapper,
    });
    // Until the list input has loaded, a disabled field of the same label holds its place.
    expect(screen.getByLabelText(/Which test first/, { selector: 'input' })).toBeDisabled();
    await vi.waitFor(() => expect(screen.getByLabelText(/Which test first/, { selector: 'input' })).toBeEnabled());
    await userEvent.click(screen.getByLabelText(/Which test first/, { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Blood cultures' }));
    expect(onChange).toHaveBeenLastCalledWith({ ...emptyAnswer, choice_ids: ['00000000-0000-4000-8000-0000000000a2'] });
  });

  it('loads a type-ahead question on demand and offers the choices as suggestions', async () => {
    const onChange = vi.fn();
    render(<QuestionInput index={1} question={question('TYPE_AHEAD')} answer={emptyAnswer} onChange={onChange} />, {
      wrapper,
    });
    await vi.waitFor(() => expect(screen.getByLabelText(/Which test first/, { selector: 'input' })).toBeEnabled());
    await userEvent.type(screen.getByLabelText(/Which test first/, { selector: 'input' }), 'L');
    expect(onChange).toHaveBeenLastCalledWith({ ...emptyAnswer, text: 'L' });
    expect(await screen.findByRole('option', { name: 'Lactate' })).toBeInTheDocument();
  });
});

import { Autocomplete, Select } from '@mantine/core';

/**
 * The two answer inputs that open a list: a dropdown question and a type-ahead question.
 * They come with Mantine's combobox and Floating UI, which no other part
 * of the participant's case screen needs, so the answer form loads this module only when a
 * question of either kind is on the screen (components/case-answer-form.tsx).
 */
export interface ChoiceSelectProps {
  label: string;
  required: boolean;
  /** What the empty box says to do. */
  placeholder: string;
  options: { value: string; label: string }[];
  value: string | null;
  error?: string;
  onChange(value: string | null): void;
}

export function ChoiceSelect(props: ChoiceSelectProps) {
  return (
    <Select
      label={props.label}
      withAsterisk={props.required}
      placeholder={props.placeholder}
      data={props.options}
      value={props.value}
      onChange={props.onChange}
      error={props.error}
      clearable
    />
  );
}

export interface TypeAheadInputProps {
  label: string;
  required: boolean;
  suggestions: string[];
  value: string;
  error?: string;
  onChange(text: string): void;
}

export function TypeAheadInput(props: TypeAheadInputProps) {
  return (
    <Autocomplete
      label={props.label}
      withAsterisk={props.required}
      data={props.suggestions}
      value={props.value}
      error={props.error}
      onChange={props.onChange}
    />
  );
}

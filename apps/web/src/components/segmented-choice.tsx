import { useId } from 'react';
import classes from './segmented-choice.module.css';

export interface SegmentedChoiceProps<T extends string> {
  value: T;
  onChange(value: T): void;
  data: { value: T; label: string }[];
  'aria-label': string;
}

/**
 * One of a few choices shown side by side, as Mantine's SegmentedControl draws them, made of
 * native radio buttons. The sign-in screen's choice of flow: Mantine's control, with its
 * sliding indicator, weighed more than the rest of the choice (docs/benchmarks.md, "Web
 * delivery"). Labels wrap
 * on a phone rather than clip.
 */
export function SegmentedChoice<T extends string>({ value, onChange, data, ...props }: SegmentedChoiceProps<T>) {
  const name = useId();
  return (
    <div role="radiogroup" aria-label={props['aria-label']} className={classes.root}>
      {data.map((item) => (
        <label key={item.value} className={classes.option} data-checked={item.value === value || undefined}>
          <input
            type="radio"
            className={classes.input}
            name={name}
            value={item.value}
            checked={item.value === value}
            onChange={() => onChange(item.value)}
          />
          {item.label}
        </label>
      ))}
    </div>
  );
}

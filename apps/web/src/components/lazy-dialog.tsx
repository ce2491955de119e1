import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A dialog whose code is fetched when it is first opened, not with the screen it is on.
 *
 * A Mantine dialog brings its portal, focus trap, scroll lock and scroll area, and a form
 * dialog the form library and the contract's schemas (zod) besides. A list screen shows
 * none of them until someone clicks; with them in its first download a list needed many
 * more files before it could paint (docs/benchmarks.md, "Web delivery").
 *
 * Until `opened` is first true nothing is rendered. From then on the dialog stays mounted,
 * so it closes with its transition and opens again at once. A dialog without `opened` is
 * open while it is mounted (`{sending && <SendNowDialog … />}`).
 */
export function lazyDialog<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Dialog = lazy(async () => ({ default: await load() }));
  function LazyDialog(props: P) {
    // Not in P's constraint: TypeScript refuses a props type with none of a constraint's
    // optional fields (a "weak type"), so dialogs without `opened` would not fit.
    const opened = (props as { opened?: boolean }).opened ?? true;
    const [wanted, setWanted] = useState(opened);
    // Set while rendering (React's pattern for state derived from a prop): the dialog is
    // wanted from the render that first opens it, without an effect's extra pass.
    if (opened && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  }
  return LazyDialog;
}

import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { browserContract } from './build/browser-contract';
import { firstCallsScript } from './build/first-calls-script';
import { mantineStylesPerComponent } from './build/mantine-styles';
import { precompress } from './build/precompress';
import { routePreloads } from './build/route-preloads';
import { scrollAreaWithoutFloatingUi } from './build/scroll-area-refs';

/**
 * The Mantine modules the 'ui' chunk may take. Left out: the floating and overlay components
 * (popovers, selects, menus, tooltips, modals and their overlay and focus trap, drawers, scroll areas) and the table, tabs and
 * choice inputs. Most administrator screens use them, but the sign-in and participant screens
 * do not, and a shared chunk is loaded whole: with them in it, every screen loaded Floating UI
 * and the combobox before its first paint. They keep the automatic split, shared among the screens that use them.
 */
const MANTINE_SHARED_UI =
  /[\\/]node_modules[\\/]@mantine[\\/](hooks[\\/](?!esm[\\/]use-focus-(trap|return)[\\/])|core[\\/](?!esm[\\/]components[\\/](Popover|Combobox|Select|MultiSelect|Autocomplete|Menu|Tooltip|Modal|ModalBase|Overlay|Drawer|Portal|ScrollArea|FocusTrap|Pill|PillsInput|TagsInput|Notification|Tabs|Table|Checkbox|Switch|Radio)[\\/]))/;

export default defineConfig(() => ({
  plugins: [
    react(),
    mantineStylesPerComponent(),
    scrollAreaWithoutFloatingUi(),
    browserContract(),
    firstCallsScript(),
    routePreloads(),
    precompress(),
  ],
  server: {
    port: 5173,
    // In development the API runs beside Vite; in production one process serves both.
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    // Written for reading profiles and bundle sizes where it was built, never named in the
    // bundles; the server does not serve them (lib/static-web.ts).
    sourcemap: 'hidden' as const,
    // dist/.vite/manifest.json: which chunks each screen loads, read by the bundle budget.
    manifest: true,
    rolldownOptions: {
      // Required by inlined common chunks (below): the app's entry exports nothing anyone reads.
      preserveEntrySignatures: false as const,
      output: {
        codeSplitting: {
          // The bundler gives each set of screens that share modules a chunk of its own, and
          // most of those were a few hundred bytes. On a slow phone network (a long round trip,
          // six requests at a time over HTTP/1.1) the number of files, not their bytes, set the
          // first paint (docs/benchmarks.md, "Web delivery", fourth pass). Small common chunks
          // are copied into the chunks that read them (the bundler's runtime keeps one instance
          // of each module however many copies load): half the files for a few kB more. It
          // needs modules to run in their source order (strictExecutionOrder, which the bundler
          // turns on). Style sheets are not copied: Vite's CSS plugin would emit a sheet from
          // every copy. The option is experimental, so vite is pinned to an exact version
          // (apps/web/package.json) and moved on purpose, with the bundle budget run again.
          experimentalInlineCommonChunks: { maxSize: 32 * 1024, exclude: /\.css(\?|$)/ },
          groups: [
            {
              // Left to itself the bundler gave each Mantine component shared by some screens a
              // chunk of its own, most of them tiny. Over HTTP/1.1 a browser fetches six at a
              // time, so on a slow network the screen waited on the number of files more than on
              // their bytes. The components most screens use go into one chunk; the rest keep the
              // automatic split (docs/benchmarks.md, "Web delivery").
              name: 'ui',
              test: MANTINE_SHARED_UI,
              minShareCount: 30,
            },
            {
              // TanStack Query came in six small files (the query, its cache, the mutation, the
              // hooks), all of them needed by every screen that reads the API: one file is fewer
              // round trips and compresses smaller. The sign-in screens do not read it
              // (lib/query-provider.tsx).
              name: 'query',
              test: /[\\/]node_modules[\\/]@tanstack[\\/]/,
            },
          ],
        },
      },
    },
  },
}));

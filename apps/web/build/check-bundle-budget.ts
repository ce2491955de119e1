// Checks the production build against the bundle budget (./bundle-budget.ts); run after
// `npm run build`. Exits 1 when a screen is over its ceiling; --json=FILE also writes the results.
//   npx tsx apps/web/build/check-bundle-budget.ts
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkBuild, formatResult } from './bundle-budget';

const distDir = path.resolve(import.meta.dirname, '..', 'dist');
const results = checkBuild(distDir);
for (const result of results) console.log(formatResult(result));
const jsonFile = process.argv.find((a) => a.startsWith('--json='))?.slice('--json='.length);
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(results, null, 2));
const over = results.filter((r) => !r.ok);
const stillAbove = results.filter((r) => r.ok && r.bytes > r.budget).length;
if (over.length) {
  console.error(`\nBundle budget: ${over.length} screen(s) over their ceiling: ${over.map((r) => r.url).join(', ')}`);
  process.exitCode = 1;
} else {
  console.log(
    `\nBundle budget: all ${results.length} screens within their ceilings (${stillAbove} still above the issue's target)`,
  );
}

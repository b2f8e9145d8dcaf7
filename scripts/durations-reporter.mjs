// A second test reporter: adds up the top-level tests' durations of each file and writes them
// as JSON ({ "<file>": ms }) when the run ends. run-tests.mjs starts the slowest files first,
// so that two lanes of --test-concurrency end together instead of one long file running alone
// at the end of the suite.
import { relative } from 'node:path';

export default async function* durations(source) {
  const byFile = {};
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const file = relative(process.cwd(), event.data.file);
      byFile[file] = (byFile[file] ?? 0) + Math.round(event.data.details?.duration_ms ?? 0);
    }
  }
  yield `${JSON.stringify(byFile, Object.keys(byFile).sort(), 1)}\n`;
}

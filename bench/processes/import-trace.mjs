// Loaded with `node --import`: records every module the process loads (its resolved URL) in the file
// IMPORT_TRACE names, one per line, so that a bench can say what a command did not load.
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';

const file = process.env.IMPORT_TRACE;
if (file) {
  register(
    `data:text/javascript,${encodeURIComponent(`
      import { appendFileSync } from 'node:fs';
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context);
        appendFileSync(${JSON.stringify(file)}, resolved.url + '\\n');
        return resolved;
      }`)}`,
  );
  appendFileSync(file, '');
}

// `npm run docs:snippets`: every TypeScript snippet of the README and the guides is type-checked, as
// a user would paste it into a project of their own. Each ```ts block of README.md, CONTRIBUTING.md,
// ARCHITECTURE.md and docs/*.md becomes a module of its own under .snippets/ (imports of
// `flashduty-sdk` resolve to src/ through the repository's tsconfig paths), compiled together by tsc
// with docs/snippets.d.ts, which declares what snippets use without defining (your `app`, your
// `openTicket()`). A snippet that is not TypeScript to compile (a shape, a shell line) is written in a
// block of its own language (```text, ```sh). Exits 1 naming each snippet that does not compile, by
// file and line.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.snippets');

/** The markdown files whose snippets are checked. */
function documents(): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', ...docs].filter((file) => {
    try {
      readFileSync(path.join(root, file));
      return true;
    } catch {
      return false;
    }
  });
}

interface Snippet {
  file: string;
  line: number;
  code: string;
}

/** The ```ts (or ```typescript) blocks of a markdown text, with the line each starts on. */
export function snippetsOf(file: string, text: string): Snippet[] {
  const found: Snippet[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i] as string)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end] as string)) end++;
    found.push({ file, line: start + 1, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return found;
}

const snippets = documents().flatMap((file) => snippetsOf(file, readFileSync(path.join(root, file), 'utf8')));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const names = new Map<string, Snippet>();
for (const snippet of snippets) {
  const name = `${snippet.file.replace(/[/.]/g, '_')}_${snippet.line}.ts`;
  names.set(name, snippet);
  // A module of its own (`export {}`), so that snippets' top-level names do not meet.
  writeFileSync(path.join(out, name), `${snippet.code}\n\nexport {};\n`);
}
writeFileSync(
  path.join(out, 'tsconfig.json'),
  JSON.stringify({
    extends: '../tsconfig.json',
    compilerOptions: { noEmit: true, noUnusedLocals: false, rootDir: '..', types: ['node'] },
    include: ['*.ts', '../docs/snippets.d.ts'],
  }),
);
const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', out], {
  encoding: 'utf8',
});
const errors = tsc.stdout.split('\n').filter((line) => line.includes('error TS'));
if (errors.length > 0 || tsc.status !== 0) {
  for (const error of errors) {
    const match =
      /^\.snippets\/([^(]+)\((\d+),(\d+)\): (.*)$/.exec(error) ?? /([^/(]+\.ts)\((\d+),(\d+)\): (.*)$/.exec(error);
    const snippet = match ? names.get(match[1] as string) : undefined;
    if (snippet && match) console.error(`${snippet.file}:${snippet.line + Number(match[2]) - 1}: ${match[4]}`);
    else console.error(error);
  }
  if (errors.length === 0) console.error(tsc.stdout || tsc.stderr);
  console.error(`docs:snippets: ${errors.length} error(s) in ${snippets.length} snippets`);
  process.exit(1);
}
console.log(`docs:snippets: ${snippets.length} TypeScript snippets of ${documents().length} files compile`);

// `npm run architecture`: the source tree of ARCHITECTURE.md, made from the opening comment of every
// source file (its first sentence), so that the picture cannot drift from the code: a file moved,
// added or renamed changes the tree. `--check` (part of `npm test`) fails when the tree of ARCHITECTURE.md
// differs from what the files say, or when an import breaks the directions it states
// (scripts/architecture/imports.ts). Generated files (src/generated/) are listed as one line.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readImports, readRules, sourceFiles, violations } from './architecture/imports.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET = path.join(root, 'ARCHITECTURE.md');
const START = '<!-- architecture:start (npm run architecture writes this tree from the files) -->';
const END = '<!-- architecture:end -->';
/** Folders shown as one line: what is in them is said once, by hand, here. */
const FOLDED: Record<string, string> = {
  'src/generated': 'written by `npm run generate` from the vendored OpenAPI; never edited by hand',
  'src/testing/generated': 'written by `npm run generate`: the mock’s answers from the OpenAPI',
};
const WIDTH = 100;

/** The first sentence of a file's opening `//` comment, on one line. */
function summary(file: string): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  const comment: string[] = [];
  for (const line of lines) {
    const match = /^\/\/ ?(.*)$/.exec(line.trim());
    if (!match) break;
    comment.push(match[1] as string);
  }
  const text = comment.join(' ').replace(/\s+/g, ' ').trim();
  // The first sentence: up to a `.`, `:` or `;` followed by a space or the end, outside code and brackets.
  let depth = 0;
  let code = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '`') code = !code;
    else if (!code && (c === '(' || c === '[')) depth++;
    else if (!code && (c === ')' || c === ']')) depth = Math.max(0, depth - 1);
    else if (!code && depth === 0 && '.:;'.includes(c) && (i + 1 === text.length || text[i + 1] === ' ')) {
      return text.slice(0, i);
    }
  }
  return text;
}

function walk(dir: string, depth: number, out: string[]): void {
  const entries = readdirSync(dir).sort((a, b) => {
    const [da, db] = [statSync(path.join(dir, a)).isDirectory(), statSync(path.join(dir, b)).isDirectory()];
    return da === db ? a.localeCompare(b) : da ? 1 : -1;
  });
  const indent = '  '.repeat(depth);
  for (const name of entries) {
    const full = path.join(dir, name);
    const relative = path.relative(root, full);
    if (statSync(full).isDirectory()) {
      const folded = FOLDED[relative];
      out.push(folded ? line(`${indent}${name}/`, folded) : `${indent}${name}/`);
      if (!folded) walk(full, depth + 1, out);
    } else if (name.endsWith('.ts')) {
      out.push(line(`${indent}${name}`, summary(full)));
    }
  }
}

/** `name   what it holds`, wrapped under its column where long. */
function line(name: string, what: string): string {
  const column = 26;
  const head = name.length + 1 >= column ? `${name} ` : name.padEnd(column);
  const words = what.split(' ');
  const rows: string[] = [];
  let row = head;
  for (const word of words) {
    if (row.length + word.length + 1 > WIDTH && row.trim() !== name.trim()) {
      rows.push(row.trimEnd());
      row = ' '.repeat(column);
    }
    row += (row.endsWith(' ') ? '' : ' ') + word;
  }
  rows.push(row.trimEnd());
  return rows.join('\n');
}

const tree: string[] = ['src/'];
walk(path.join(root, 'src'), 1, tree);
const block = `${START}\n\n\`\`\`\n${tree.join('\n')}\n\`\`\`\n\n${END}`;
const readme = readFileSync(TARGET, 'utf8');
const [before, rest] = readme.split(START);
const after = rest?.split(END)[1];
if (before === undefined || after === undefined) {
  console.error(`architecture: ARCHITECTURE.md has no ${START} … ${END} block`);
  process.exit(1);
}
const next = `${before}${block}${after}`;
if (process.argv.includes('--check')) {
  if (next !== readme) {
    console.error(
      "architecture: the tree of ARCHITECTURE.md differs from the files' opening comments; run npm run architecture",
    );
    process.exit(1);
  }
  const imports = readImports(root);
  const broken = violations(sourceFiles(root), imports, readRules(readme));
  if (broken.length > 0) {
    console.error(
      `architecture: ${broken.length} imports break ARCHITECTURE.md's directions:\n  ${broken.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log(
    `architecture: the tree of ARCHITECTURE.md matches ${tree.length - 1} files and folders, and its import directions hold for ${imports.length} imports`,
  );
} else {
  writeFileSync(TARGET, next);
  console.log(`architecture: wrote the tree of ARCHITECTURE.md (${tree.length - 1} files and folders)`);
}

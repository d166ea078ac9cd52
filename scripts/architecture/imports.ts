// The import directions ARCHITECTURE.md states, checked against the code: every value import of
// src/ (a static `import` or `export … from`, and a dynamic `import()`; `import type` is gone once
// built and is free) is read from the files, and each rule table of ARCHITECTURE.md is applied to
// them, with one rule the tables need not state: no two files import each other by value, directly
// or around a circle.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** One value import: from a file to a file, both relative to the root (`src/…`). */
export interface Import {
  from: string;
  to: string;
  dynamic: boolean;
}

/** Where a rule applies (files or folders ending in `/`), but not to `except`. */
interface Scope {
  files: string[];
  except: string[];
}

/** What a file may import beyond its own area: nothing else. */
export interface AllowRule extends Scope {
  only: string[];
}

/** What files must never import (`statically`: a dynamic import is allowed). */
export interface DenyRule extends Scope {
  never: string[];
  staticOnly: boolean;
}

const STATIC = /^\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+'(\.[^']+)'/gm;
const BARE = /^\s*import\s+'(\.[^']+)'/gm;
const DYNAMIC = /\bimport\(\s*'(\.[^']+)'\s*\)/g;

/** Every `.ts` file under `dir`, relative to `root`. */
export function sourceFiles(root: string, dir = 'src'): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const relative = `${dir}/${name}`;
    if (statSync(path.join(root, relative)).isDirectory()) return sourceFiles(root, relative);
    return name.endsWith('.ts') ? [relative] : [];
  });
}

/** The value imports of `file` (its text given), resolved to files relative to the root. */
export function importsOf(file: string, text: string): Import[] {
  const resolve = (specifier: string) =>
    path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
  const found: Import[] = [];
  for (const pattern of [STATIC, BARE])
    for (const match of text.matchAll(pattern))
      found.push({ from: file, to: resolve(match[1] as string), dynamic: false });
  for (const match of text.matchAll(DYNAMIC))
    found.push({ from: file, to: resolve(match[1] as string), dynamic: true });
  return found;
}

/** Every value import of the source tree. */
export function readImports(root: string): Import[] {
  return sourceFiles(root).flatMap((file) => importsOf(file, readFileSync(path.join(root, file), 'utf8')));
}

/** Whether `file` is one of `patterns` (a folder pattern ends in `/`). */
function matches(file: string, patterns: string[]): boolean {
  return patterns.some((pattern) => (pattern.endsWith('/') ? file.startsWith(pattern) : file === pattern));
}

function inScope(file: string, scope: Scope): boolean {
  return matches(file, scope.files) && !matches(file, scope.except);
}

/** The backquoted names of a table cell: `src/x/`, `src/y.ts`. */
function names(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
}

/** The rows of the markdown table between `<!-- name:start` and `<!-- name:end -->`, as cells. */
function tableRows(markdown: string, name: string): string[][] {
  const start = markdown.indexOf(`<!-- ${name}:start`);
  const end = markdown.indexOf(`<!-- ${name}:end -->`);
  if (start < 0 || end < start) throw new Error(`ARCHITECTURE.md has no ${name} table`);
  return markdown
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .slice(1) // the header
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
}

/** The rule tables of ARCHITECTURE.md: `areas` (what each part may import) and `boundaries` (what it must not). */
export function readRules(markdown: string): { allow: AllowRule[]; deny: DenyRule[] } {
  const allow = tableRows(markdown, 'areas').map(([files = '', only = '']) => ({
    files: names(files),
    except: [],
    only: names(only),
  }));
  const deny = tableRows(markdown, 'boundaries').map(([files = '', except = '', never = '', how = '']) => ({
    files: names(files),
    except: names(except),
    never: names(never),
    staticOnly: how.startsWith('statically'),
  }));
  return { allow, deny };
}

/**
 * What breaks the rules, in words: an import an area does not allow, one a boundary forbids, a file
 * no area covers, and every circle of value imports.
 */
export function violations(
  files: string[],
  imports: Import[],
  rules: { allow: AllowRule[]; deny: DenyRule[] },
): string[] {
  const found: string[] = [];
  const areaOf = (file: string) => rules.allow.find((rule) => inScope(file, rule));
  for (const file of files) if (!areaOf(file)) found.push(`${file}: in no area of ARCHITECTURE.md`);
  for (const { from, to, dynamic } of imports) {
    const area = areaOf(from);
    if (area && !matches(to, area.files) && !matches(to, area.only))
      found.push(`${from} imports ${to}: ${area.files.join(', ')} imports only ${area.only.join(', ') || 'itself'}`);
    for (const rule of rules.deny)
      if (inScope(from, rule) && matches(to, rule.never) && !(dynamic && rule.staticOnly))
        found.push(
          `${from} imports ${to}${dynamic ? ' (dynamic)' : ''}: ${rule.files.join(', ')} never import ${rule.never.join(', ')}`,
        );
  }
  for (const circle of circles(imports)) found.push(`a circle of value imports: ${circle.join(' → ')}`);
  return found;
}

/** The circles of the import graph (static and dynamic alike), each once. */
function circles(imports: Import[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of imports) next.set(from, [...(next.get(from) ?? []), to]);
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (state.get(to) === 'open') found.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of next.keys()) if (!state.has(file)) visit(file);
  return found;
}

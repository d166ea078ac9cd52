// The table of the command line's commands: the one place that lists them all, as the GitHub CLI's
// root lists its commands. The written ones are each defined with its run in its family's file
// (mock, api, incidents, webhooks); the others are one per named method of the manifest (methods.ts),
// so that no command is written by hand that the manifest can give. A written command wins over a
// generated one of the same words (`incidents ack <id…>` also takes --data). A command is found by
// its words, camelCase or kebab-case; an unknown one is a usage error with the nearest suggested.

import { closest } from '../../internal/closest.js';
import type { Command } from '../command.js';
import { UsageError } from '../exit.js';
import { API_COMMAND } from './api.js';
import { INCIDENT_COMMANDS } from './incidents.js';
import { kebab, methodCommand } from './methods.js';
import { MOCK_COMMAND } from './mock.js';
import { WEBHOOK_COMMANDS } from './webhooks.js';

/** The written commands, in the order the overview lists them. */
export const COMMANDS: Command[] = [MOCK_COMMAND, API_COMMAND, ...INCIDENT_COMMANDS, ...WEBHOOK_COMMANDS];

/** One command per named method of the manifest, loaded when asked (the manifest is large). */
export async function methodCommands(): Promise<Command[]> {
  const [{ OPERATIONS }, { RULES }] = await Promise.all([
    import('../../operations.js'),
    import('../../generated/operation-rules.js'),
  ]);
  return Object.entries(OPERATIONS).map(([path, info]) => methodCommand(path, info, RULES[path]));
}

/** What words name: a command, or the commands under them (`flashduty members`). */
export type Found = { command: Command } | { group: Command[]; words: string[] };

/**
 * The command whose words start `words` (the longest; a written one before the generated, which are
 * loaded only when no written one fits), or the group they name; else a UsageError suggesting the
 * nearest command (or, failing that, the nearest first word).
 */
export async function findCommand(words: string[]): Promise<Found> {
  const all = [...COMMANDS, ...(longestMatch(COMMANDS, words) ? [] : await methodCommands())];
  const command = longestMatch(all, words);
  if (command) return { command };
  const given = words.map(kebab);
  const under = all.filter((candidate) => given.every((word, i) => candidate.words[i] === word));
  if (under.length > 0) return { group: under, words: given };
  const names = all.map((candidate) => candidate.words.join(' '));
  const near =
    closest(given.join(' '), names) ?? closest(given[0] as string, [...new Set(all.map((c) => c.words[0] as string))]);
  throw new UsageError(
    `unknown command ${JSON.stringify(given.join(' '))}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}`,
  );
}

/** The command whose words start `words` (the longest), matching camelCase or kebab-case words. */
function longestMatch(commands: Command[], words: string[]): Command | undefined {
  const given = words.map(kebab);
  let best: Command | undefined;
  for (const command of commands) {
    const fits = command.words.length <= given.length && command.words.every((word, i) => word === given[i]);
    if (fits && command.words.length > (best?.words.length ?? 0)) best = command;
  }
  return best;
}

// The options of createMockService, checked before anything is made: a name that is no option is a
// ConfigError naming the option it was likely meant as; a value out of its range is a ConfigError
// naming the option, its range and the value. A seed is a whole number from 0 to 2^32 − 1 (the
// generator's state); there are 0 to 100 000 incidents; the clock starts at a valid time; agents and
// skills have ids, an agent's once.

import { ConfigError } from '../internal/flashduty-error.js';
import { checkOptionKeys, type ListsEvery, positiveWhole } from '../internal/options.js';
import type { AgentSeed, SkillSeed } from './model/agents-and-skills.js';
import type { RateLimits } from './rate-limit.js';

/** Options of {@link createMockService}; each has a default. */
export interface MockServiceOptions {
  /** Seed of the generated data (a whole number from 0 to 2^32 − 1); the same seed gives the same service. Default 1. */
  seed?: number;
  /** Incidents spread over the 30 days before the clock, 0 to 100 000. Default 200. */
  incidents?: number;
  /** Start the clock here (Unix ms or Date) instead of following real time. */
  now?: Date | number;
  /** Default: `a2a_demo` (disabled) and `a2a_enabled` (enabled). */
  agents?: AgentSeed[];
  /** Default: `skill_demo`. */
  skills?: SkillSeed[];
  /** Server-side limits; default the spec's 50/s and 1000/min. `false` turns them off. */
  rateLimits?: Partial<RateLimits> | false;
  /** Largest request body accepted; default 1 MiB (larger → 413 EntityTooLarge). */
  maxBodyBytes?: number;
}

/** Every option (the type below fails to compile when one is missing). */
const OPTION_NAMES = [
  'seed',
  'incidents',
  'now',
  'agents',
  'skills',
  'rateLimits',
  'maxBodyBytes',
] as const satisfies ReadonlyArray<keyof MockServiceOptions>;
const _everyOptionListed: ListsEvery<MockServiceOptions, typeof OPTION_NAMES> = true;

const MAX_INCIDENTS = 100_000;
const MAX_SEED = 2 ** 32 - 1;

function wholeIn(value: unknown, name: string, min: number, max: number): void {
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max)
    throw new ConfigError(`${name}: expected a whole number from ${min} to ${max}, got ${String(value)}`);
}

function ids<T>(value: unknown, name: string, field: keyof T & string): void {
  if (!Array.isArray(value)) throw new ConfigError(`${name}: expected an array, got ${typeof value}`);
  const seen = new Set<string>();
  value.forEach((item: unknown, i) => {
    const id = (item as Record<string, unknown> | null)?.[field];
    if (typeof id !== 'string' || id === '')
      throw new ConfigError(`${name}[${i}].${field}: expected a non-empty string, got ${JSON.stringify(id)}`);
    if (seen.has(id)) throw new ConfigError(`${name}[${i}].${field}: ${id} is given twice`);
    seen.add(id);
  });
}

/** The options of createMockService, or a ConfigError naming the first that is wrong. */
export function checkMockOptions(options: unknown): MockServiceOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new ConfigError(`createMockService: expected an object of options, got ${JSON.stringify(options)}`);
  checkOptionKeys(options, OPTION_NAMES, 'createMockService');
  const given = options as MockServiceOptions;
  if (given.seed !== undefined) wholeIn(given.seed, 'seed', 0, MAX_SEED);
  if (given.incidents !== undefined) wholeIn(given.incidents, 'incidents', 0, MAX_INCIDENTS);
  if (given.now !== undefined) {
    const time = given.now instanceof Date ? given.now.getTime() : given.now;
    if (typeof time !== 'number' || !Number.isFinite(time) || time < 0)
      throw new ConfigError(`now: expected a Date or Unix milliseconds, got ${String(given.now)}`);
  }
  if (given.agents !== undefined) {
    ids<AgentSeed>(given.agents, 'agents', 'agent_id');
    given.agents.forEach((agent, i) => {
      if (agent.enabled !== undefined && typeof agent.enabled !== 'boolean')
        throw new ConfigError(`agents[${i}].enabled: expected a boolean, got ${JSON.stringify(agent.enabled)}`);
    });
  }
  if (given.skills !== undefined) ids<SkillSeed>(given.skills, 'skills', 'skill_id');
  if (given.rateLimits !== undefined && given.rateLimits !== false) {
    if (typeof given.rateLimits !== 'object' || given.rateLimits === null)
      throw new ConfigError(`rateLimits: expected false or { perSecond, perMinute }, got ${String(given.rateLimits)}`);
    checkOptionKeys(given.rateLimits, ['perSecond', 'perMinute'], 'rateLimits');
    for (const name of ['perSecond', 'perMinute'] as const) {
      const value = given.rateLimits[name];
      if (value !== undefined) positiveWhole(value, `rateLimits.${name}`);
    }
  }
  if (given.maxBodyBytes !== undefined) positiveWhole(given.maxBodyBytes, 'maxBodyBytes');
  return given;
}

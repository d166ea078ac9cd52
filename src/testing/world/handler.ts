// What an operation of the world's own models (members, mapping data) works with, and the shape of
// one: the world, the engine, a generator, the time and the member who calls; its answer.

import type { OperationResult } from '../model/operation-result.js';
import type { Random } from '../model/random.js';
import type { World } from '../model/world.js';
import type { ResourceEngine } from './engine.js';

/** What an operation of the world's own models works with. */
export interface WorldContext {
  world: World;
  engine: ResourceEngine;
  random: Random;
  /** Unix seconds. */
  now: number;
  /** The member who calls. */
  personId: number;
}

/** One operation of the world's own models. */
export type WorldHandler = (context: WorldContext, body: Record<string, unknown>) => OperationResult;

// What the mock knows of one resource family, as `npm run generate` reads it from the OpenAPI
// (scripts/generate/mock-families.ts writes src/testing/generated/families.ts): the rule the engine
// serves it by.

import type { Schema } from '../../internal/schema.js';

/** What an operation does to its family. */
export type Role = 'create' | 'upsert' | 'list' | 'info' | 'infos' | 'update' | 'delete' | 'enable' | 'disable';

/** One family: its operations, its id and scope, its item. */
export interface FamilyRule {
  /** The field naming one item (`rule_id`). */
  id: string;
  /** An id as the OpenAPI shows one: new ids take its shape (a number, an object id, `cal.` and 22 letters). */
  example?: string | number;
  /** Fields that place an item under another (`channel_id` for a channel's rules), sent with every call. */
  scope?: string[];
  /** The item's name (`rule_name`, `name`, `title`): what a list's `query` searches. */
  name?: string;
  /** Where a list's items are in its answer; `''` when the answer is the array. */
  items?: string;
  /** The item's times the mock sets, and their unit. */
  times?: Record<string, 's' | 'ms'>;
  /** The item's fields naming the member who created (`created`) or last changed (`updated`) it. */
  by?: Record<string, 'created' | 'updated'>;
  /** The schema of one item. */
  item: Schema;
  /** The family's operations by what they do. */
  operations: Partial<Record<Role, string>>;
}

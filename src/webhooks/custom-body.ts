// Custom-body deliveries: an integration with a custom body template sends the rendered template,
// not the default payload. The keys the receiver needs (dedup key, event time and type, the
// incident or alert id) are wherever the template placed their variables, so the template is read
// once, at construction, into "slots" (here), and each delivery is read by walking to those places
// (custom-body-keys.ts).
//
// A key can be read back only from a string that is its variable alone (any JSON type survives), or
// its variable with fixed text around it (read as text). Value mapping may have replaced a value:
// tables on event_type and ids are inverted, and refused when two values map to one, or when a
// value maps to one that could also arrive unmapped (a known event type for event_type; an id's
// shape, 24 hex digits, for an id): `{ event_type: { i_ack: 'i_new' } }` would make a real i_new read
// as an i_ack. Tables on event_id and event_time are refused, since the delivered value could not
// be trusted as the key.

import type { Problem } from '../core/problem.js';
import { FlashdutyError } from '../internal/flashduty-error.js';
import { KEY_VARIABLES, type KeyVariable, readerOf, where } from './custom-body-keys.js';
import { parseTemplate, stringify, type ValueMapping, VARIABLE, WHOLE_VARIABLE } from './template.js';
import { isServiceEventType, type PayloadReader } from './payload.js';
import type { CustomBodyEvent } from './types.js';

/** A custom body the receiver cannot read keys from (found at construction). */
export class CustomBodyError extends FlashdutyError {}
CustomBodyError.prototype.name = 'CustomBodyError';

/** What {@link customBodyReader} (and the receiver's `customBody` option) takes. */
export interface CustomBodyOptions {
  /** The template configured on the integration: a JSON value, or JSON text. */
  template: unknown;
  /** The integration's value mapping, if any. */
  valueMapping?: ValueMapping;
  /**
   * Deduplicate on the template's `{{event_id}}`; default true, and then a template without it is
   * refused. `false`: every delivery runs the handlers, retries of one event included.
   */
  dedup?: boolean;
}

/** @internal One variable placed in the template. */
export interface Placement {
  /** Its path in the payload, e.g. `incident.title`. */
  variable: string;
  /** Where in the rendered body: keys and array indexes. */
  location: string[];
  /** The string it sits in, as written in the template. */
  written: string;
  /** The variable as written, braces included (the text sent when the path does not exist). */
  token: string;
  /** The string is this variable only (its JSON type survives). */
  whole: boolean;
  /** Text before and after it, when it is the only variable in its string; else undefined. */
  around?: [prefix: string, suffix: string];
}

/** @internal Where a key is read from, and how value mapping is undone. */
export interface Slot extends Placement {
  /** Delivered value (whole: JSON of it; in text: the text) → the payload's value. */
  inverse?: Map<string, string>;
  /**
   * Where else the key is read when this place came unfilled: the event id is at the top of one
   * payload and inside `incident` of another (a custom action), so a template may place both.
   */
  otherwise?: Slot;
}

/** @internal A problem at a place (in the template, or in a delivered body), and the key it makes unreadable. */
export interface SlotProblem extends Problem {
  key?: KeyVariable;
}

/** @internal Every variable of a template, in document order. */
export function placements(template: unknown): Placement[] {
  const found: Placement[] = [];
  const walk = (node: unknown, location: string[]): void => {
    if (typeof node === 'string') {
      if (!node.includes('{{')) return;
      const whole = WHOLE_VARIABLE.exec(node);
      if (whole)
        return void found.push({ variable: whole[1] as string, location, written: node, token: node, whole: true });
      const matches = [...node.matchAll(VARIABLE)];
      for (const match of matches) {
        const around: [string, string] | undefined =
          matches.length === 1 ? [node.slice(0, match.index), node.slice(match.index + match[0].length)] : undefined;
        found.push({
          variable: match[1] as string,
          location,
          written: node,
          token: match[0],
          whole: false,
          ...(around ? { around } : {}),
        });
      }
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...location, String(index)]));
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, item] of Object.entries(node)) walk(item, [...location, key]);
    }
  };
  walk(template, []);
  return found;
}

/**
 * @internal Where each key can be read from, and why one cannot. A key placed several times is
 * read from its first readable place (alone in a string before fixed text around it).
 */
export function findSlots(
  template: unknown,
  valueMapping: ValueMapping,
): { slots: Partial<Record<KeyVariable, Slot>>; problems: SlotProblem[] } {
  const all = placements(template);
  const slots: Partial<Record<KeyVariable, Slot>> = {};
  const problems: SlotProblem[] = [];
  for (const key of KEY_VARIABLES) {
    // A custom action may carry its id inside `incident`: `{{incident.event_id}}` is the dedup key then.
    const candidates = all.filter(
      (p) => p.variable === key || (key === 'event_id' && p.variable === 'incident.event_id'),
    );
    if (candidates.length === 0) continue;
    const placement = candidates.find((p) => p.whole) ?? candidates.find((p) => p.around);
    if (!placement) {
      const first = candidates[0] as Placement;
      problems.push({
        key,
        path: where(first.location),
        message: `{{${key}}} shares its string with other variables: give it a string of its own`,
      });
      continue;
    }
    const table = Object.hasOwn(valueMapping, key) ? valueMapping[key] : undefined;
    if (!table || Object.keys(table).length === 0) {
      const others = candidates.filter((p) => p.variable !== placement.variable);
      const otherwise = others.find((p) => p.whole) ?? others.find((p) => p.around);
      slots[key] = otherwise ? { ...placement, otherwise } : placement;
      continue;
    }
    if (key === 'event_id' || key === 'event_time') {
      problems.push({
        key,
        path: where(placement.location),
        message: `valueMapping must not map ${key}: the receiver reads it as delivered`,
      });
      continue;
    }
    const inverse = new Map<string, string>();
    let clash: string | undefined;
    for (const [source, target] of Object.entries(table)) {
      const delivered = placement.whole ? JSON.stringify(target) : stringify(target);
      if (inverse.has(delivered) && inverse.get(delivered) !== source)
        clash = `${inverse.get(delivered)} and ${source} both map to ${delivered}`;
      else if (target !== source && arrivesUnmapped(key, stringify(target)))
        clash = `${source} maps to ${stringify(target)}, which also arrives as itself`;
      inverse.set(delivered, source);
    }
    if (clash)
      problems.push({
        key,
        path: where(placement.location),
        message: `valueMapping for ${key} cannot be undone (${clash})`,
      });
    else slots[key] = { ...placement, inverse };
  }
  return { slots, problems };
}

/** @internal What a value mapping must be, as the integration configures it. */
export const VALUE_MAPPING_SHAPE = 'must be { [path]: { [sourceValue]: targetValue } }';

/** @internal Whether `value` is shaped as a value mapping (its tables are checked by findSlots). */
export function isValueMapping(value: unknown): value is ValueMapping {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((table) => typeof table === 'object' && table !== null)
  );
}

/** Whether a mapped value of `key` could also be delivered unmapped, so that the two read as one. */
function arrivesUnmapped(key: KeyVariable, value: string): boolean {
  return key === 'event_type' ? isServiceEventType(value) : key !== 'event_time' && /^[0-9a-f]{24}$/i.test(value);
}

/**
 * @internal Where a template's deliveries hold their keys, checked when the receiver is made; throws
 * what {@link customBodyReader} throws.
 */
export function checkCustomBody(options: CustomBodyOptions): Partial<Record<KeyVariable, Slot>> {
  if (typeof options !== 'object' || options === null || options.template === undefined) {
    throw new CustomBodyError('customBody needs the template configured on the integration');
  }
  const valueMapping = options.valueMapping ?? {};
  if (!isValueMapping(valueMapping)) throw new CustomBodyError(`customBody.valueMapping ${VALUE_MAPPING_SHAPE}`);
  const dedup = options.dedup ?? true;
  const { slots, problems } = findSlots(parseTemplate(options.template), valueMapping);
  const blocking = problems.filter((p) => dedup || p.key !== 'event_id');
  if (blocking.length > 0)
    throw new CustomBodyError(
      `The custom body template cannot be read: ${blocking.map((p) => `${p.path || '(top)'}: ${p.message}`).join('; ')}`,
    );
  if (!dedup) delete slots.event_id;
  else if (!slots.event_id) {
    throw new CustomBodyError(
      'The custom body template has no {{event_id}} to deduplicate retries by: add "event_id": "{{event_id}}", or pass dedup: false',
    );
  }
  return slots;
}

/**
 * A reader of deliveries rendered from a custom body template: finds the keys where the template
 * placed them. Throws {@link CustomBodyError} for a template it cannot read keys from, and for one
 * without `{{event_id}}` unless `dedup: false`; `TemplateSyntaxError` for invalid JSON text.
 */
export function customBodyReader(options: CustomBodyOptions): PayloadReader<CustomBodyEvent> {
  return readerOf(checkCustomBody(options));
}

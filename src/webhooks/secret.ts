// The shared-secret header check. Flashduty does not sign webhook calls; an integration can send
// custom headers, so a secret header is the way to tell the real sender from anyone else.
// Rules owned here:
// - Compared in constant time: every configured value, each over the longer of the two lengths.
// - Compared as UTF-8 bytes. Over HTTP a header's bytes reach us as Latin-1 text (Node's headers,
//   and `Headers` in every runtime: one character per byte), while `receive()` may be given the
//   text itself; a presented value matches when either reading of it gives the secret's UTF-8
//   bytes, so a secret such as `pässwörd` gets the same verdict through every adapter.

import { ConfigError } from '../internal/flashduty-error.js';

/** The shared-secret header check. */
export interface SecretOptions {
  /** The custom header configured on the integration, e.g. `x-flashduty-token`. */
  header: string;
  /** Accepted values; more than one while rotating. */
  values: readonly string[];
}

const encoder = new TextEncoder();

/** Equal bytes, in time that depends only on the lengths, never on where the bytes differ. */
function bytesEqual(x: Uint8Array, y: Uint8Array): boolean {
  const length = Math.max(x.length, y.length);
  let diff = x.length ^ y.length;
  for (let i = 0; i < length; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

export function checkSecretOptions(secret: SecretOptions | undefined): SecretOptions | undefined {
  if (secret === undefined) return undefined;
  if (typeof secret.header !== 'string' || secret.header.trim() === '') {
    throw new ConfigError('secret.header: expected the name of a header');
  }
  if (!isNonEmptyStrings(secret.values)) throw new ConfigError('secret.values: expected one or more non-empty strings');
  return { header: secret.header.trim().toLowerCase(), values: [...secret.values] };
}

// A guard rather than Array.isArray inline: that narrows a readonly array to any[].
function isNonEmptyStrings(values: unknown): values is readonly string[] {
  return Array.isArray(values) && values.length > 0 && values.every((v) => typeof v === 'string' && v !== '');
}

/** True when the header holds one of the values; every value is compared, so timing says nothing. */
export function secretMatches(secret: SecretOptions, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const asText = encoder.encode(presented);
  // The bytes HTTP carried, when the text reads as one byte a character.
  const asBytes = /^[\0-\xff]*$/.test(presented) ? Uint8Array.from(presented, (c) => c.charCodeAt(0)) : asText;
  let ok = false;
  for (const value of secret.values) {
    const wanted = encoder.encode(value);
    ok = bytesEqual(asText, wanted) || ok;
    ok = bytesEqual(asBytes, wanted) || ok;
  }
  return ok;
}

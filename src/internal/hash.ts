// One non-cryptographic hash for telling texts apart: a resume token's fingerprint of its params,
// and a walk's memory of the items it yielded (where they have no id). Not for secrets.

/** FNV-1a over a string's UTF-16 code units, folded to 32 bits. */
export function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

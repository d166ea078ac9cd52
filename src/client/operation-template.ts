// Which operation a sent path is, as metrics and spans name it: the path's template in the manifest
// (every trigger fired is `/safari/automation/triggers/{trigger_id}/fire`), never the path with its
// parameters filled in, which would make a label value per id and grow a backend without bound.
// A path no operation matches (`client.request` to a path the SDK does not know) has no template.
// Looked up only when a meter or tracer provider is registered. The manifest is imported, not
// bundled with the request loop: the call that reaches the loop has loaded it already (call.ts),
// so its import resolves at once, and the loop's chunk does not share a file with call.ts's.

import { loader } from '../internal/lazy.js';

/** The lookup of a path's template, made from the manifest once it has loaded. */
const loadLookup = /* @__PURE__ */ loader(() =>
  import('../generated/operations.js').then(({ OPERATIONS }) => {
    const withParameters = Object.keys(OPERATIONS)
      .filter((template) => template.includes('{'))
      .map((template) => {
        // A parameter is one segment, encoded (params.ts `toPath`): never a `/`.
        const source = template
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+');
        return { template, pattern: new RegExp(`^${source}$`) };
      });
    return (slashed: string): string | undefined =>
      Object.hasOwn(OPERATIONS, slashed)
        ? slashed
        : withParameters.find(({ pattern }) => pattern.test(slashed))?.template;
  }),
);

/**
 * The template of the operation `path` (as the request loop has it, without its leading `/`) is
 * sent to, `/incident/list`; `undefined` when no operation of the manifest matches it. At once
 * once the manifest has loaded, else a promise.
 */
export function operationTemplate(path: string): string | undefined | Promise<string | undefined> {
  const lookup = loadLookup.value;
  return lookup ? lookup(`/${path}`) : loadLookup().then((loaded) => loaded(`/${path}`));
}

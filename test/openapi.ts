// The OpenAPI description the tests read: the one scripts/generate/merge.ts makes of the two vendored
// files, which the generator, the mock's tables and Prism use too, so no test judges against another.
import { loadDescription } from '../scripts/generate/merge.js';

interface OpenAPIOperation {
  requestBody?: { content?: Record<string, { example?: unknown }> };
}

/** The merged description, as far as the tests read it. */
export const DESCRIPTION = loadDescription().document as unknown as {
  paths: Record<string, Record<string, OpenAPIOperation>>;
};

/** Every path of the description. */
export const PATHS = Object.keys(DESCRIPTION.paths);

/** An operation's request example, JSON or a form's (an upload's); undefined where it has none. */
export function requestExample(path: string): unknown {
  const methods = DESCRIPTION.paths[path] ?? {};
  const content = (methods.post ?? methods.get)?.requestBody?.content ?? {};
  return (content['application/json'] ?? content['multipart/form-data'])?.example;
}

// The import directions of ARCHITECTURE.md (scripts/architecture/imports.ts): value imports are
// read from the text (static, re-exports, bare and dynamic; never `import type`), and the rule
// tables of the real ARCHITECTURE.md catch what they forbid: an adapter imported by the receiver
// statically, a step importing the receiver, the client importing the receiver, a circle, a file in
// no area. The tree as it is breaks none of them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, readImports, readRules, sourceFiles, violations } from '../../../scripts/architecture/imports.js';

const root = path.resolve(import.meta.dirname, '../../..');
const rules = readRules(readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8'));

describe('importsOf', () => {
  it('reads static imports, re-exports, bare imports and dynamic imports, resolved; not type-only ones', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "export { c } from '../c.js';",
      "export type { D } from './d.js';",
      "import './side-effect.js';",
      "import {\n  e,\n  f,\n} from './stores/e.js';",
      "const g = () => import('./adapters/g.js');",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importsOf('src/webhooks/x.ts', text)).toEqual([
      { from: 'src/webhooks/x.ts', to: 'src/webhooks/a.ts', dynamic: false },
      { from: 'src/webhooks/x.ts', to: 'src/c.ts', dynamic: false },
      { from: 'src/webhooks/x.ts', to: 'src/webhooks/stores/e.ts', dynamic: false },
      { from: 'src/webhooks/x.ts', to: 'src/webhooks/side-effect.ts', dynamic: false },
      { from: 'src/webhooks/x.ts', to: 'src/webhooks/adapters/g.ts', dynamic: true },
    ]);
  });
});

describe("ARCHITECTURE.md's rules", () => {
  const files = ['src/webhooks/receiver.ts', 'src/webhooks/pipeline.ts', 'src/client/client.ts'];
  const check = (from: string, to: string, dynamic = false) => violations(files, [{ from, to, dynamic }], rules);

  it('let the receiver load an adapter, never import one statically', () => {
    expect(check('src/webhooks/receiver.ts', 'src/webhooks/adapters/node.ts', true)).toEqual([]);
    expect(check('src/webhooks/receiver.ts', 'src/webhooks/adapters/node.ts')).toEqual([
      expect.stringMatching(/^src\/webhooks\/receiver.ts imports src\/webhooks\/adapters\/node.ts: .* never import/),
    ]);
  });

  it('keep the steps below the receiver, the queue sides apart, and the client off the receiver', () => {
    expect(check('src/webhooks/pipeline.ts', 'src/webhooks/receiver.ts')).toHaveLength(1);
    expect(check('src/webhooks/pipeline.ts', 'src/webhooks/queue/worker.ts')).toHaveLength(1);
    expect(check('src/webhooks/queue/enqueue.ts', 'src/webhooks/pipeline.ts')).toHaveLength(1);
    expect(check('src/webhooks/queue/worker.ts', 'src/webhooks/pipeline.ts')).toEqual([]);
    expect(check('src/client/client.ts', 'src/webhooks/receiver.ts').join()).toMatch(/imports only|never import/);
    expect(check('src/webhooks/ingress.ts', 'src/client/client.ts').join()).toMatch(/imports only/);
  });

  it('report a circle of value imports, and a file in no area', () => {
    const circle = violations(
      files,
      [
        { from: 'src/webhooks/payload.ts', to: 'src/webhooks/ingress.ts', dynamic: false },
        { from: 'src/webhooks/ingress.ts', to: 'src/webhooks/payload.ts', dynamic: false },
      ],
      rules,
    );
    expect(circle).toEqual([
      'a circle of value imports: src/webhooks/payload.ts → src/webhooks/ingress.ts → src/webhooks/payload.ts',
    ]);
    expect(violations(['src/nowhere/x.ts'], [], rules)).toEqual(['src/nowhere/x.ts: in no area of ARCHITECTURE.md']);
  });

  it('hold for the source tree as it is', () => {
    expect(violations(sourceFiles(root), readImports(root), rules)).toEqual([]);
  });
});

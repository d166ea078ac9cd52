// The generated namespaces' base (src/client/resources/resource.ts): every operation of the manifest
// is a method of its namespace's class, named as the manifest names it, whose frame a stack shows by
// class and method (what go-to-definition and a debugger land on); a method handed on alone still
// calls through its client; a namespace shows its methods and sub-namespaces, not its client; a
// list's params are copied when it is called.
import { describe, expect, it, vi } from 'vitest';
import { Flashduty } from '../../../../src/index.js';
import { OPERATIONS } from '../../../../src/operations.js';
import { Resource } from '../../../../src/client/resources/resource.js';
import { memoryClient, ok } from '../../../support/responder.js';

const ID = '69da451ef77b1b51f40e83ee';
const client = new Flashduty({ appKey: 'k', logLevel: 'off' });

/** The namespace and the method of a dotted name (`incidents.alerts.list`). */
function lookUp(name: string): { namespace: unknown; method: unknown } {
  const parts = name.split('.');
  let namespace: unknown = client;
  for (const part of parts.slice(0, -1)) namespace = (namespace as Record<string, unknown>)[part];
  return { namespace, method: (namespace as Record<string, unknown>)[parts.at(-1) as string] };
}

describe('the namespaces', () => {
  it('have every operation of the manifest as a method of their class', () => {
    for (const { method: name } of Object.values(OPERATIONS)) {
      const { namespace, method } = lookUp(name);
      expect(namespace, name).toBeInstanceOf(Resource);
      expect(method, name).toBeTypeOf('function');
      const verb = name.split('.').at(-1) as string;
      expect(Object.getPrototypeOf(namespace) as object, name).toHaveProperty(verb);
    }
    expect(Object.getPrototypeOf(client.incidents.alerts).constructor.name).toBe('IncidentsAlerts');
  });

  it('show their methods and sub-namespaces, not the client', () => {
    const keys = Object.keys(client.incidents);
    expect(keys).toEqual(expect.arrayContaining(['alerts', 'list', 'ack', 'warRooms']));
    expect(JSON.stringify(client.incidents.alerts)).toBe('{}');
  });
});

describe('a method', () => {
  it('is on the stack by its class and name while it makes its call', () => {
    const { client: memory } = memoryClient(() => ok({}));
    let stack = '';
    const call = memory._call.bind(memory);
    vi.spyOn(memory, '_call').mockImplementationOnce((run) => {
      stack = new Error('here').stack ?? '';
      return call(run);
    });
    void memory.incidents.ack({ incident_ids: [ID] });
    expect(stack).toMatch(/at Incidents\.ack /);
  });

  it('calls through its client when handed on alone', async () => {
    const { client: memory, sent } = memoryClient(() => ok({ items: [], total: 0 }));
    // Handed on alone on purpose: that is what this test is about (the methods are bound).
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const { ack } = memory.incidents;
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const { list } = memory.incidents.alerts;
    await Promise.all([{ incident_ids: [ID] }].map((params) => ack(params)));
    expect((await list({ incident_id: ID })).items).toEqual([]);
    expect(sent.map((s) => s.url.pathname)).toEqual(['/incident/ack', '/incident/alert/list']);
  });

  it('sends a list’s params as they were when it was called', async () => {
    const { client: memory, sent } = memoryClient(() => ok({ items: [], total: 0 }));
    const params = { incident_id: ID, limit: 5 };
    const pending = memory.incidents.alerts.list(params);
    params.limit = 50;
    await pending;
    expect(sent[0]?.body).toEqual({ incident_id: ID, limit: 5 });
  });
});

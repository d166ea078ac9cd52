// The naming rule of the generated methods (scripts/generate/naming.ts): the resource is the path's
// first segment, camelCase and plural; the segments between make one sub-resource; the last is the
// verb; a product's segment is no resource, an area of a product is one namespace; a path parameter
// is no segment; OVERRIDES win; two paths never share a name, and no name is both a method and a
// namespace.
import { describe, expect, it } from 'vitest';
import { camel, methodName, methodNames, OVERRIDES, plural } from '../../../../scripts/generate/naming.js';

describe('methodName', () => {
  it.each([
    ['/incident/ack', 'incidents.ack'],
    ['/incident/list-by-ids', 'incidents.listByIds'],
    ['/status-page/change/info', 'statusPages.changes.info'],
    ['/alert-event/list', 'alertEvents.list'],
    ['/channel/escalate/rule/list', 'channels.escalateRules.list'],
    ['/incident/war-room/list', 'incidents.warRooms.list'],
    ['/monit/target/list', 'monitors.targets.list'],
    ['/rum/application/list', 'rum.applications.list'],
    ['/safari/mcp/server/list', 'mcpServers.list'],
    ['/safari/a2a-agent/enable', 'a2aAgents.enable'],
    ['/safari/automation/rule/create', 'automations.rules.create'],
    ['/safari/automation/triggers/{trigger_id}/fire', 'automations.triggers.fire'],
  ])('names %s %s', (path, name) => {
    expect(methodName(path)).toBe(name);
  });

  it('takes a name from OVERRIDES where the rule would give another, each with its reason', () => {
    expect(methodName('/incident/past/list')).toBe('incidents.listPast');
    expect(methodName('/incident/responder/add')).toBe('incidents.addResponder');
    for (const [path, { method, why }] of Object.entries(OVERRIDES)) {
      expect(methodName(path), path).toBe(method);
      expect(why.length, path).toBeGreaterThan(10);
    }
  });

  it('refuses a path with no verb, or a product or area with no resource', () => {
    expect(() => methodName('/incident')).toThrow(/has no verb segment/);
    expect(() => methodName('/safari/list')).toThrow(/names no resource after \/safari\//);
    expect(() => methodName('/safari/automation/run')).toThrow(/names no resource in its area/);
  });
});

describe('words', () => {
  it('camelCases kebab and snake segments', () => {
    expect([camel('list-by-ids'), camel('war_room'), camel('a2a-agent')]).toEqual(['listByIds', 'warRoom', 'a2aAgent']);
  });

  it('makes the English plural of the last word, and leaves one that is plural already', () => {
    expect(['rule', 'policy', 'day', 'box', 'match', 'data', 'status', 'warRoom'].map(plural)).toEqual([
      'rules',
      'policies',
      'days',
      'boxes',
      'matches',
      'data',
      'status',
      'warRooms',
    ]);
  });
});

describe('methodNames', () => {
  it('names every path', () => {
    expect(methodNames(['/incident/ack', '/channel/list'], true)).toEqual(
      new Map([
        ['/incident/ack', 'incidents.ack'],
        ['/channel/list', 'channels.list'],
      ]),
    );
  });

  it('refuses two paths with one name, and a name that is also a namespace', () => {
    expect(() => methodNames(['/incident_x/ack', '/incident-x/ack'], true)).toThrow(
      /\/incident_x\/ack and \/incident-x\/ack would both be incidentXs\.ack/,
    );
    expect(() => methodNames(['/member/roles', '/member/role/list'], true)).toThrow(
      /members\.roles \(\/member\/roles\) is also a namespace/,
    );
  });

  it('refuses an override of a path the OpenAPI does not have, but for an older file alone', () => {
    expect(() => methodNames(['/incident/ack'])).toThrow(/OVERRIDES names .*, which the OpenAPI no longer has/);
    expect(() => methodNames(['/incident/ack'], true)).not.toThrow();
  });
});

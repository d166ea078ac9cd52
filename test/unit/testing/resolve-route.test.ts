// Which route a path is: itself, a route with path parameters (their values decoded), or under a
// base path the longest route it ends with; never a shorter route that only ends the same way.
import { describe, expect, it } from 'vitest';
import { resolveRoute } from '../../../src/testing/resolve-route.js';

const ROUTES = ['/incident/list', '/insight/incident/list', '/list', '/safari/automation/triggers/{trigger_id}/fire'];

describe('resolveRoute', () => {
  it('finds a route as it is, trailing slashes aside', () => {
    expect(resolveRoute('/incident/list', ROUTES)).toEqual({ path: '/incident/list', params: {} });
    expect(resolveRoute('/incident/list//', ROUTES)).toEqual({ path: '/incident/list', params: {} });
  });

  it('under a base path, the longest route the path ends with', () => {
    expect(resolveRoute('/api/v1/incident/list', ROUTES).path).toBe('/incident/list');
    expect(resolveRoute('/api/insight/incident/list', ROUTES).path).toBe('/insight/incident/list');
  });

  it('reads path parameters, decoded, under a base path too', () => {
    expect(resolveRoute('/safari/automation/triggers/atrig%201/fire', ROUTES)).toEqual({
      path: '/safari/automation/triggers/{trigger_id}/fire',
      params: { trigger_id: 'atrig 1' },
    });
    expect(resolveRoute('/base/safari/automation/triggers/t1/fire', ROUTES).params).toEqual({ trigger_id: 't1' });
  });

  it('is no route for an unknown path or a parameter that is not valid percent-encoding', () => {
    expect(resolveRoute('/nope', ROUTES)).toEqual({ path: '/nope', params: {} });
    expect(resolveRoute('/safari/automation/triggers/%E0%A4%A/fire', ROUTES)).toEqual({
      path: '/safari/automation/triggers/%E0%A4%A/fire',
      params: {},
    });
    expect(resolveRoute('/', ROUTES).path).toBe('/');
  });
});

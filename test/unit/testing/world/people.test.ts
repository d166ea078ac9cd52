// The seeded people: 12 to 18 members with distinct names and emails from the built-in lists, the
// owner first and an admin; another seed, other people; teams of 3 or more members with every member
// in one; the ids of the service's form.
import { describe, expect, it } from 'vitest';
import { Random } from '../../../../src/testing/model/random.js';
import { personOf, seedMembers, seedTeamRosters, serviceId } from '../../../../src/testing/world/people.js';

const NOW = Date.UTC(2026, 10, 1) / 1000;

describe('the seeded people', () => {
  it('are distinct people, the same for a seed and others for another', () => {
    for (let seed = 0; seed < 40; seed++) {
      const members = seedMembers(new Random(seed), NOW);
      expect(members.length).toBeGreaterThanOrEqual(12);
      expect(members.length).toBeLessThanOrEqual(18);
      expect(new Set(members.map((m) => m.person_name)).size).toBe(members.length);
      expect(new Set(members.map((m) => m.email)).size).toBe(members.length);
      expect(new Set(members.map((m) => m.person_id)).size).toBe(members.length);
      expect(members[0]!.role_ids).toContain(2);
      for (const member of members) {
        expect(member.person_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
        expect(member.email).toBe(`${member.person_name.replace(' ', '.').toLowerCase()}@example.com`);
        expect(member.created_at).toBeLessThan(NOW);
      }
    }
    const names = (seed: number) => seedMembers(new Random(seed), NOW).map((m) => m.person_name);
    expect(names(7)).toEqual(names(7));
    expect(names(7)).not.toEqual(names(8));
  });

  it('make teams of three or more, every member in one', () => {
    for (let seed = 0; seed < 40; seed++) {
      const random = new Random(seed);
      const members = seedMembers(random, NOW);
      const rosters = seedTeamRosters(random, members);
      expect(rosters.length).toBeGreaterThanOrEqual(3);
      expect(new Set(rosters.map((r) => r.team_name)).size).toBe(rosters.length);
      for (const roster of rosters) {
        expect(roster.person_ids.length).toBeGreaterThanOrEqual(3);
        expect(new Set(roster.person_ids).size).toBe(roster.person_ids.length);
      }
      expect(new Set(rosters.flatMap((r) => r.person_ids))).toEqual(new Set(members.map((m) => m.person_id)));
    }
  });

  it('have ids of the service’s form, and show as persons without the account’s fields', () => {
    expect(String(serviceId(new Random(3)))).toMatch(/^24\d{8}131$/);
    const [member] = seedMembers(new Random(3), NOW);
    expect(personOf(member!)).toEqual({
      person_id: member!.person_id,
      person_name: member!.person_name,
      email: member!.email,
    });
  });
});

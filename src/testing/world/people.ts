// The seeded people of the mock: members with distinct names and emails drawn from a small built-in
// list of first and last names (no fake-data dependency ships to users), and the teams they make
// up. The seed picks who: the same seed the same people, another seed others. Every member is in
// at least one team; the account's owner (the first member, whose keys the mock hands out) leads
// the first.

import type { Random } from '../model/random.js';

/** A member of the account. */
export interface Member {
  person_id: number;
  person_name: string;
  email: string;
  /** `enabled`; `pending` for a member invited who has not joined; `deleted` once removed (kept: history names them). */
  status: 'enabled' | 'pending' | 'deleted';
  phone: string;
  country_code: string;
  /** The account roles the member holds. */
  role_ids: number[];
  locale: string;
  time_zone: string;
  /** An external reference, `''` when none. */
  ref_id: string;
  /** Unix seconds. */
  created_at: number;
  updated_at: number;
}

const FIRST = [
  'Ada', 'Alan', 'Amara', 'Anil', 'Beatriz', 'Chen', 'Dara', 'Diego', 'Elif', 'Emeka', 'Farah', 'Grace',
  'Hana', 'Ines', 'Ivan', 'Jun', 'Kai', 'Lars', 'Leila', 'Mateo', 'Mei', 'Nadia', 'Noor', 'Olu',
  'Priya', 'Quinn', 'Rafael', 'Rosa', 'Sami', 'Sofia', 'Tariq', 'Uma', 'Wei', 'Yara', 'Yusuf', 'Zoe',
]; // prettier-ignore
const LAST = [
  'Abbott', 'Bauer', 'Castro', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Haddad', 'Ito', 'Jensen',
  'Kowalski', 'Lindqvist', 'Moreau', 'Nakamura', 'Okafor', 'Petrov', 'Quispe', 'Rossi', 'Santos',
  'Tanaka', 'Usman', 'Varga', 'Wang', 'Yilmaz', 'Zhou',
]; // prettier-ignore
const TEAMS = ['Platform', 'Payments', 'Data', 'Edge', 'Identity', 'Storage', 'Search', 'Mobile'];

/** The role every member holds, and the owner's (see seed.ts, which seeds the account's roles). */
export const MEMBER_ROLE_ID = 6;
export const ADMIN_ROLE_ID = 2;

/** An id as the service makes a member's, a team's or a channel's: 13 digits, ending in the account's 131. */
export function serviceId(random: Random): number {
  return (2_400_000_000 + random.int(0, 99_999_999)) * 1000 + 131;
}

/** 12 to 18 members, the owner first, each with a name no other has. */
export function seedMembers(random: Random, now: number): Member[] {
  const count = random.int(12, 18);
  const names = new Set<string>();
  const ids = new Set<number>();
  const members: Member[] = [];
  while (members.length < count) {
    const first = random.pick(FIRST);
    const last = random.pick(LAST);
    const name = `${first} ${last}`;
    const id = serviceId(random);
    if (names.has(name) || ids.has(id)) continue;
    names.add(name);
    ids.add(id);
    const joined = now - random.int(30, 900) * 86_400;
    members.push({
      person_id: id,
      person_name: name,
      email: `${first}.${last}@example.com`.toLowerCase(),
      status: 'enabled',
      phone: `+1555${String(random.int(0, 9_999_999)).padStart(7, '0')}`,
      country_code: 'US',
      role_ids: members.length === 0 ? [ADMIN_ROLE_ID, MEMBER_ROLE_ID] : [MEMBER_ROLE_ID],
      locale: 'en-US',
      time_zone: 'Asia/Shanghai',
      ref_id: '',
      created_at: joined,
      updated_at: joined,
    });
  }
  return members;
}

/** 3 to 5 teams of 3 to 6 members each; every member in one at least, the owner in the first. */
export function seedTeamRosters(random: Random, members: Member[]): Array<{ team_name: string; person_ids: number[] }> {
  const names = [...TEAMS];
  const count = random.int(3, 5);
  const rosters = Array.from({ length: count }, () => {
    const team_name = names.splice(random.int(0, names.length - 1), 1)[0] as string;
    return { team_name, person_ids: [] as number[] };
  });
  // Each member joins one team in turn, then a few join a second: teams of 3 to 6.
  members.forEach((member, i) => rosters[i % count]?.person_ids.push(member.person_id));
  for (const roster of rosters) {
    while (roster.person_ids.length < 3 || (roster.person_ids.length < 6 && random.chance(0.3))) {
      const extra = random.pick(members).person_id;
      if (!roster.person_ids.includes(extra)) roster.person_ids.push(extra);
    }
  }
  return rosters;
}

/** What webhook payloads and incidents carry of a member: the person, nothing of the account's. */
export function personOf(member: Member): { person_id: number; person_name: string; email: string } {
  return { person_id: member.person_id, person_name: member.person_name, email: member.email };
}

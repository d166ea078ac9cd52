// The seeded resources of the mock's world, made through the engine as a client would make them, so
// that they fit together: the account's roles and a notification template; the teams of
// people.ts; channels, each belonging to a team and managed by some of its members; a weekly
// rotation per team whose groups are its members; an escalation rule per channel that notifies the
// channel's on-call team's rotation and its managers. Nothing names a member, team or channel the
// world does not have.

import type { Random } from '../model/random.js';
import type { World } from '../model/world.js';
import type { ResourceEngine } from './engine.js';
import { ADMIN_ROLE_ID, MEMBER_ROLE_ID, seedTeamRosters, serviceId } from './people.js';

const CHANNELS = ['Checkout', 'Payments Prod', 'Data Pipeline', 'Edge Network', 'Databases', 'Identity', 'Search API'];
const DAY = 86_400;

/** Seeds the world's resources; `now` is Unix seconds. */
export function seedResources(engine: ResourceEngine, world: World, random: Random, now: number): void {
  const owner = world.members[0]?.person_id ?? 0;
  engine.insert(
    '/role',
    { role_name: 'Account Admin', description: 'Every permission', editable: false },
    owner,
    ADMIN_ROLE_ID,
  );
  engine.insert(
    '/role',
    { role_name: 'Member', description: 'Responds to incidents', editable: false },
    owner,
    MEMBER_ROLE_ID,
  );
  const template = engine.insert(
    '/template',
    { template_name: 'Default', description: 'The notification template every channel starts with' },
    owner,
  );

  const teams = seedTeamRosters(random, world.members).map((roster) =>
    engine.insert('/team', { ...roster, description: `The ${roster.team_name} team` }, owner, serviceId(random)),
  );
  const schedules = teams.map((team) => {
    const people = team.person_ids as number[];
    const start = now - (now % (7 * DAY)) - 7 * DAY;
    const groups = people.map((person, i) => ({
      group_name: String.fromCharCode(65 + i),
      name: String.fromCharCode(65 + i),
      members: [{ role_id: 0, person_ids: [person] }],
      start: 0,
      end: 0,
    }));
    const layers = [
      {
        layer_name: 'Weekly',
        name: 'Weekly',
        mode: 0,
        weight: 0,
        hidden: 0,
        groups,
        rotation_unit: 'week',
        rotation_value: 1,
        rotation_duration: 7 * DAY,
        handoff_time: 0,
        enable_time: start,
        layer_start: start,
        expire_time: 0,
        day_mask: { repeat: [0, 1, 2, 3, 4, 5, 6] },
        fair_rotation: false,
        mask_continuous_enabled: false,
      },
    ];
    return engine.insert(
      '/schedule',
      { schedule_name: `${String(team.team_name)} on-call`, team_id: team.team_id, description: '', layers },
      owner,
      serviceId(random),
    );
  });

  const count = random.int(5, CHANNELS.length);
  for (let i = 0; i < count; i++) {
    const t = i % teams.length;
    const team = teams[t] as (typeof teams)[number];
    const people = team.person_ids as number[];
    const managers = [people[i % people.length] as number];
    const channel = engine.insert(
      '/channel',
      { channel_name: CHANNELS[i], team_id: team.team_id, description: `Alerts of ${CHANNELS[i]}` },
      owner,
      serviceId(random),
    );
    channel.manager_ids = managers;
    const schedule = schedules[t];
    engine.insert(
      '/channel/escalate/rule',
      {
        channel_id: channel.channel_id,
        rule_name: 'Default escalation',
        template_id: template.template_id,
        description: `The on-call of ${String(team.team_name)}, then the channel's managers`,
        layers: [
          {
            target: { schedule_to_role_ids: { [String(schedule?.schedule_id)]: [] }, by: { follow_preference: true } },
            max_times: 3,
            notify_step: 10,
            escalate_window: 30,
            force_escalate: false,
          },
          {
            target: { person_ids: managers, by: { follow_preference: true } },
            max_times: 1,
            notify_step: 10,
            escalate_window: 0,
            force_escalate: false,
          },
        ],
      },
      owner,
    );
  }
}

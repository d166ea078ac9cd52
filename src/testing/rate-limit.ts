// The service's limits as the mock enforces them: calls counted on arrival in a rolling second and
// a rolling minute, per account (incident list) or per app key (agent operations).

/** The service's rate limits as the mock enforces them. */
export interface RateLimits {
  perSecond: number;
  perMinute: number;
}

export class ArrivalCounter {
  readonly #arrivals = new Map<string, number[]>();
  readonly #limits: RateLimits;

  constructor(limits: RateLimits) {
    this.#limits = limits;
  }

  /** Counts an arrival; `false` when it goes over a limit (a refused call is not counted: it takes no room). */
  admit(bucket: string, now: number): boolean {
    let times = this.#arrivals.get(bucket);
    if (!times) this.#arrivals.set(bucket, (times = []));
    while (times.length > 0 && (times[0] as number) <= now - 60_000) times.shift();
    let inSecond = 0;
    for (let i = times.length - 1; i >= 0 && (times[i] as number) > now - 1_000; i--) inSecond++;
    const allowed = inSecond < this.#limits.perSecond && times.length < this.#limits.perMinute;
    if (allowed) times.push(now);
    return allowed;
  }
}

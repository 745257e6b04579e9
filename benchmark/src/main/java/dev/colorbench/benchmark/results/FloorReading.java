package dev.colorbench.benchmark.results;

/**
 * What the harness measured of the floor's Redis work in one round: the least Redis work that hands over the colors, sent by
 * the harness itself, whatever rows the run has (docs/measuring.md#the-floor). The harness answers it to the plan's call, and
 * JMeter records it like a reading.
 *
 * @param round the round it was measured in
 * @param get one GET of the whole palette, stored as one value: what the palette cached as one value costs Redis
 * @param mget one MGET of the palette's keys, one value each: what reading the keys costs Redis
 */
public record FloorReading(int round, Work get, Work mget) {

    /**
     * One command, sent many times from the run's client threads.
     *
     * @param commands how many were sent and answered while Redis's CPU was read
     * @param redisCpuSeconds Redis's CPU meanwhile, {@code used_cpu_user + used_cpu_sys} of {@code INFO cpu}, as a row's is read
     * @param seconds how long they were sent
     */
    public record Work(long commands, double redisCpuSeconds, double seconds) {

        /** Redis's CPU per command, in µs; null when none was answered or the CPU did not move forward. */
        public Double microsPerCommand() {
            return commands <= 0 || !(redisCpuSeconds > 0) ? null : redisCpuSeconds * 1e6 / commands;
        }
    }

    /** The lesser of the two commands' Redis CPU, in µs: the floor's Redis work in this round; null when neither was measured. */
    public Double leastMicros() {
        Double one = get == null ? null : get.microsPerCommand();
        Double other = mget == null ? null : mget.microsPerCommand();
        if (one == null || other == null) {
            return one == null ? other : one;
        }
        return Math.min(one, other);
    }
}

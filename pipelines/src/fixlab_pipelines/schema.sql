-- fixlab results store: the DuckDB schema (data/fixlab.duckdb).
--
-- The database is a cache: `fixlab ingest` rebuilds it from what is committed in data/
-- (run folders, releases.csv, reference/). Nothing here is the source of truth, so the
-- schema can change freely as long as ingest and this file change together.
--
-- Keys: a run is identified by run_key = '<campaign>/<run_id>'. run_id alone is only unique
-- inside one campaign (the runner names runs 'scenario.mode.product.configuration.rN').
-- Units: every *_ns column is integer nanoseconds; timestamps are UTC (TIMESTAMP, no zone).
-- Sample tables carry no primary/foreign key on purpose: index maintenance on millions of
-- rows would dominate ingest time, and ingest already guarantees integrity (one run = one
-- transaction, validated before insert).

-- A release of a product and the campaign that measured it (from data/releases.csv).
CREATE TABLE IF NOT EXISTS releases (
    product      VARCHAR NOT NULL,            -- 'fixlab' for our own releases
    version      VARCHAR NOT NULL,            -- e.g. '0.1.0'
    commit       VARCHAR NOT NULL,            -- git commit the release was built from
    released_on  DATE    NOT NULL,
    campaign     VARCHAR,                     -- data/runs/<campaign> measuring it, or NULL
    PRIMARY KEY (product, version)
);

-- One row per campaign: the runs of one runner invocation on one hardware setup.
-- Derived from `runs` at ingest; kept as a table so the portal can list campaigns cheaply.
CREATE TABLE IF NOT EXISTS campaigns (
    campaign             VARCHAR PRIMARY KEY,
    started_at           TIMESTAMP NOT NULL,  -- earliest run start
    finished_at          TIMESTAMP NOT NULL,  -- latest run finish
    run_count            INTEGER   NOT NULL,
    topology             VARCHAR   NOT NULL,  -- 'loopback' | 'two-host' | 'mixed'
    hardware_fingerprint VARCHAR   NOT NULL   -- see runs.hardware_fingerprint; 'mixed' if runs differ
);

-- One row per run: the manifest flattened, plus the manifest itself.
CREATE TABLE IF NOT EXISTS runs (
    run_key               VARCHAR PRIMARY KEY,   -- '<campaign>/<run_id>'
    campaign              VARCHAR   NOT NULL,
    run_id                VARCHAR   NOT NULL,
    schema_version        INTEGER   NOT NULL,    -- data contract version of the manifest
    kind                  VARCHAR   NOT NULL,    -- 'latency' (latency_samples) | 'throughput' (throughput_points)
    started_at            TIMESTAMP NOT NULL,
    finished_at           TIMESTAMP NOT NULL,
    product               VARCHAR   NOT NULL,    -- a product id of the runner's registry (bench-runner Products)
    product_version       VARCHAR   NOT NULL,
    product_commit        VARCHAR   NOT NULL,
    scenario              VARCHAR   NOT NULL,    -- 'rtt-echo', 'throughput', 'internal-send', ...
    repetition            INTEGER   NOT NULL,    -- 1-based
    repetitions           INTEGER   NOT NULL,
    configuration         VARCHAR   NOT NULL,    -- free name: 'balanced', 'optimized', ...
    nagle                 BOOLEAN   NOT NULL,
    affinity              BOOLEAN   NOT NULL,
    validate_checksum     BOOLEAN   NOT NULL,
    validate_garbled      BOOLEAN   NOT NULL,
    validate_dictionary   BOOLEAN   NOT NULL,
    storage               VARCHAR   NOT NULL,    -- 'memory' | 'file' | 'mmap' | ...
    queue                 VARCHAR   NOT NULL,
    idle_strategy         VARCHAR   NOT NULL,
    socket_send_buffer    BIGINT    NOT NULL,    -- bytes
    socket_receive_buffer BIGINT    NOT NULL,    -- bytes
    workload_mode         VARCHAR   NOT NULL,    -- 'paced' | 'closed-loop' | 'stream' | ...
    messages              BIGINT    NOT NULL,    -- measured messages (after warm-up)
    warmup_messages       BIGINT    NOT NULL,
    rate                  BIGINT,                -- msg/s for paced runs, NULL otherwise
    message_type          VARCHAR   NOT NULL,    -- FIX MsgType, e.g. 'D'
    message_bytes         INTEGER   NOT NULL,
    fix_version           VARCHAR   NOT NULL,    -- 'FIX.4.2' | 'FIX.4.4'
    topology              VARCHAR   NOT NULL,    -- 'loopback' | 'two-host'
    -- What `diff` compares to decide whether two runs are comparable: topology plus, per
    -- host role, CPU model, sockets, cores, threads, RAM and kernel. Human-readable on
    -- purpose, so a refusal can show what differs.
    hardware_fingerprint  VARCHAR   NOT NULL,
    samples_file          VARCHAR   NOT NULL,    -- Parquet file, relative to data/runs/<campaign>/<run_id>/
    reproduce             VARCHAR[] NOT NULL,    -- exact commands that produced the run
    results               JSON      NOT NULL,    -- the runner's own summary (checked, not trusted)
    manifest              JSON      NOT NULL,    -- the whole manifest.json as committed
    ingested_at           TIMESTAMP NOT NULL,
    tls_protocol          VARCHAR,               -- configuration.tls, optional: the protocol and cipher suite the
    tls_cipher_suite      VARCHAR                -- client's TLS handshake settled on; NULL without TLS or not recorded
);
ALTER TABLE runs ADD COLUMN IF NOT EXISTS tls_protocol VARCHAR;
ALTER TABLE runs ADD COLUMN IF NOT EXISTS tls_cipher_suite VARCHAR;

-- Hardware of every host of a run, as the runner collected it.
CREATE TABLE IF NOT EXISTS hosts (
    run_key     VARCHAR NOT NULL,
    role        VARCHAR NOT NULL,   -- 'server' | 'client'
    hostname    VARCHAR NOT NULL,
    cpu_model   VARCHAR NOT NULL,
    sockets     INTEGER NOT NULL,
    cores       INTEGER NOT NULL,
    threads     INTEGER NOT NULL,
    ram_bytes   BIGINT  NOT NULL,
    kernel      VARCHAR NOT NULL,
    os          VARCHAR NOT NULL,
    nic         VARCHAR NOT NULL,
    jdk_vendor  VARCHAR NOT NULL,
    jdk_version VARCHAR NOT NULL,
    jvm_args    VARCHAR[] NOT NULL,
    memory      VARCHAR,            -- hardware.hosts[].memory, optional: whether freed memory goes back to a hypervisor
    core_to_core_cpus      INTEGER[],  -- hardware.hosts[].core_to_core, optional: the two CPUs measured,
    core_to_core_before_ns BIGINT,     -- a cache line's round trip between them just before the run
    core_to_core_after_ns  BIGINT,     -- and just after it (NULL where not measured); see run_verdicts
    other_tasks_window_ns  BIGINT,     -- hardware.hosts[].other_tasks, optional: how long the run measured,
    other_tasks_cpu_ns     BIGINT,     -- the CPU time the host's other tasks took meanwhile,
    other_tasks_busiest    STRUCT(task VARCHAR, cpu_ns BIGINT)[],  -- and the busiest of them by name;
    other_tasks_stolen_ns  BIGINT,     -- the time the hypervisor took the host's CPUs (/proc/stat's steal, 10 ms ticks)
    compilers_window_ns    BIGINT,     -- hardware.hosts[].compilers, optional: from the end of the wait for an idle JIT
    compilers_cpu_ns       BIGINT,     -- to the end of the measured messages, the CPU time the JVMs' compilers took
    cpu_reference_readings BIGINT,     -- hardware.hosts[].cpu_reference, optional (streams on one host): how often the
    cpu_reference_p50_ns   BIGINT,     -- receiving thread timed a fixed piece of work, its median, and (runners since
    cpu_reference_p90_ns   BIGINT,     -- 2026-12-01) its 90th percentile; see run_verdicts
    sender_cpu_reference_readings BIGINT,  -- hardware.hosts[].sender_cpu_reference, optional (streams, the client's
    sender_cpu_reference_p50_ns   BIGINT,  -- host): the same of the sending thread; no rule reads it
    sender_cpu_reference_p90_ns   BIGINT,
    stalls_window_ns          BIGINT,  -- hardware.hosts[].stalls, optional (paced runs): the measured window,
    stalls_over_ns            BIGINT,  -- the shortest gap counted,
    stalls_client_ns          BIGINT,  -- how long the client's thread stood still in such gaps within it
    stalls_client_longest_ns  BIGINT,  -- and the longest gap; NULL where that thread was not seen
    stalls_client_off_cpu_ns  BIGINT,  -- and how much of those gaps it was off its CPU (NULL from runners before)
    stalls_client_window_off_cpu_ns BIGINT,  -- how long it was off its CPU in the whole window (NULL: not read)
    stalls_client_paused_ns   BIGINT,  -- how long its JVM's safepoints took in the window (NULL: not read)
    stalls_client_pause_off_cpu_ns BIGINT,  -- and how much of the gaps' time off its CPU the JVMs' safepoints explain
    stalls_server_ns          BIGINT,  -- the same of the server's thread, where it answers and spins
    stalls_server_longest_ns  BIGINT,
    stalls_server_off_cpu_ns  BIGINT,
    stalls_server_window_off_cpu_ns BIGINT,
    stalls_server_paused_ns   BIGINT,
    stalls_server_pause_off_cpu_ns BIGINT,
    PRIMARY KEY (run_key, role)
);
-- a database file built before hosts had the column
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS memory VARCHAR;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS core_to_core_cpus INTEGER[];
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS core_to_core_before_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS core_to_core_after_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS other_tasks_window_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS other_tasks_cpu_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS other_tasks_busiest STRUCT(task VARCHAR, cpu_ns BIGINT)[];
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS other_tasks_stolen_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS compilers_window_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS compilers_cpu_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS cpu_reference_readings BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS cpu_reference_p50_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS sender_cpu_reference_readings BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS sender_cpu_reference_p50_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS cpu_reference_p90_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS sender_cpu_reference_p90_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_window_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_over_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_client_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_client_longest_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_server_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_server_longest_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_client_off_cpu_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_server_off_cpu_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_client_window_off_cpu_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_server_window_off_cpu_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_client_paused_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_client_pause_off_cpu_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_server_paused_ns BIGINT;
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS stalls_server_pause_off_cpu_ns BIGINT;

-- What each run's samples and histogram were when it was ingested: runs are immutable, so
-- ingesting the same run again with other content is refused. samples_sha256 is the SHA-256
-- of the runner's CSV (the same hash the Parquet's metadata keeps), hgrm_sha256 that of
-- latency.hgrm (NULL for throughput runs).
CREATE TABLE IF NOT EXISTS run_contents (
    run_key        VARCHAR PRIMARY KEY,
    samples_sha256 VARCHAR NOT NULL,
    hgrm_sha256    VARCHAR
);

-- Whether a run measured a steady state, assessed at ingest from its own samples
-- (fixlab_pipelines/steady.py); reason says why not. Runs that are not steady never enter
-- a headline or a diff verdict.
CREATE TABLE IF NOT EXISTS run_steadiness (
    run_key VARCHAR PRIMARY KEY,
    steady  BOOLEAN NOT NULL,
    reason  VARCHAR NOT NULL
);

-- Every measured message of a latency run (latency.csv), in file order.
CREATE TABLE IF NOT EXISTS latency_samples (
    run_key                  VARCHAR NOT NULL,
    seq                      BIGINT  NOT NULL,
    send_ns                  BIGINT  NOT NULL,  -- actual send time, relative to run start
    latency_ns               BIGINT  NOT NULL,  -- from the actual send
    latency_from_intended_ns BIGINT  NOT NULL   -- from the intended send (coordinated-omission corrected)
);

-- Cumulative progress points of a throughput run (throughput.csv), in file order.
CREATE TABLE IF NOT EXISTS throughput_points (
    run_key    VARCHAR NOT NULL,
    elapsed_ns BIGINT  NOT NULL,
    messages   BIGINT  NOT NULL   -- messages received up to elapsed_ns
);

-- Published figures of other vendors' reports (data/reference/*.csv). Summary-only and
-- never joined into our own statistics: they were measured by someone else, elsewhere.
CREATE TABLE IF NOT EXISTS reference_results (
    source        VARCHAR NOT NULL,  -- the seed report the figure was transcribed from
    product       VARCHAR NOT NULL,  -- e.g. 'FIX Antenna Java'
    version       VARCHAR NOT NULL,
    hardware      VARCHAR NOT NULL,  -- as the report describes it
    configuration VARCHAR NOT NULL,  -- the report's own name, e.g. 'Optimized'
    scenario      VARCHAR NOT NULL,  -- our scenario id closest to what the report measured
    statistic     VARCHAR NOT NULL,  -- 'min','max','mean','stddev','p50','p95','p99', 'messages_per_second', ...
    value         DOUBLE  NOT NULL,
    unit          VARCHAR NOT NULL,  -- 'us' (microseconds, as published) | 'msg/s' | 'ms'
    note          VARCHAR            -- anything needed to read the figure honestly
);

-- Per-run latency statistics, one row per run and metric:
--   metric 'latency'               from latency_ns (from the actual send)
--   metric 'latency_from_intended' from latency_from_intended_ns (coordinated-omission corrected)
-- Percentiles are nearest-rank (quantile_disc): the smallest sample with at least p% of
-- samples at or below it, the definition HdrHistogram's getValueAtPercentile uses.
-- stddev is the population standard deviation, as HdrHistogram reports it.
CREATE OR REPLACE VIEW run_stats AS
WITH per_run AS (
    SELECT run_key, 'latency' AS metric, count(*) AS count,
           min(latency_ns) AS min_ns, max(latency_ns) AS max_ns,
           avg(latency_ns) AS mean_ns, stddev_pop(latency_ns) AS stddev_ns,
           quantile_disc(latency_ns, [0.5, 0.9, 0.95, 0.99, 0.999, 0.9999]) AS q
    FROM latency_samples GROUP BY run_key
    UNION ALL
    SELECT run_key, 'latency_from_intended', count(*),
           min(latency_from_intended_ns), max(latency_from_intended_ns),
           avg(latency_from_intended_ns), stddev_pop(latency_from_intended_ns),
           quantile_disc(latency_from_intended_ns, [0.5, 0.9, 0.95, 0.99, 0.999, 0.9999])
    FROM latency_samples GROUP BY run_key
)
SELECT r.run_key, r.campaign, r.run_id, r.product, r.product_version, r.scenario,
       r.workload_mode, r.configuration, r.repetition, r.hardware_fingerprint,
       s.metric, s.count, s.min_ns, s.max_ns, s.mean_ns, s.stddev_ns,
       s.q[1] AS p50_ns, s.q[2] AS p90_ns, s.q[3] AS p95_ns,
       s.q[4] AS p99_ns, s.q[5] AS p999_ns, s.q[6] AS p9999_ns
FROM per_run s JOIN runs r USING (run_key);

-- Per-run throughput: the last progress point over its elapsed time.
CREATE OR REPLACE VIEW throughput_stats AS
SELECT r.run_key, r.campaign, r.run_id, r.product, r.product_version, r.scenario,
       r.workload_mode, r.configuration, r.repetition, r.hardware_fingerprint,
       count(*) AS points,
       arg_max(t.messages, t.elapsed_ns) AS messages,
       max(t.elapsed_ns) AS elapsed_ns,
       arg_max(t.messages, t.elapsed_ns) * 1e9 / max(t.elapsed_ns) AS messages_per_second,
       max(t.elapsed_ns) / arg_max(t.messages, t.elapsed_ns) AS ns_per_message
FROM throughput_points t JOIN runs r USING (run_key)
GROUP BY ALL;

-- Each run's verdict: run_steadiness's, then the rule that needs the other runs of its campaign.
-- The campaign's placement is the median of its runs' nearer core_to_core readings (the lower of the
-- two middle ones: with one close and one distant run, the close one). A run whose reading is more
-- than CAMPAIGN_PLACEMENT_BOUND times that (steady.py's; db.py writes it in), or less than that fraction of
-- it, ran on CPUs the host had
-- placed otherwise than for most of the campaign's runs, which a loopback round trip feels in full:
-- it is not compared with them. Why the median: on the VM the results come from, a campaign's readings
-- lie in one band (about 110-240 ns), and now and then a run is on CPUs placed much closer (56-90 ns,
-- up to 4 runs of a campaign). Measured against the campaign's nearest run, as until 2026-11-30,
-- one such run put every run of the band above three times its reading out of comparison (27 of the
-- 105 runs of i12-s28-final, 36 of i12-s26-final) and kept itself in.
CREATE OR REPLACE VIEW run_verdicts AS
WITH readings AS (
    SELECT h.run_key, any_value(r.campaign) AS campaign,
           min(least(h.core_to_core_before_ns, h.core_to_core_after_ns)) AS nearest_ns
    FROM hosts h JOIN runs r USING (run_key)
    GROUP BY h.run_key
), placements AS (
    SELECT run_key, nearest_ns, quantile_disc(nearest_ns, 0.5) OVER (PARTITION BY campaign) AS campaign_median_ns
    FROM readings
), placed AS (
    SELECT run_key, nearest_ns, campaign_median_ns,
           CASE WHEN nearest_ns > {CAMPAIGN_PLACEMENT_BOUND} * campaign_median_ns THEN 'further apart'
                WHEN {CAMPAIGN_PLACEMENT_BOUND} * nearest_ns < campaign_median_ns THEN 'closer together' END AS elsewhere
    FROM placements
), cpu_references AS (
    -- the streams' receiving-thread readings, the median (hosts.cpu_reference_p50_ns) and, from runners that record
    -- it, the 90th percentile, against the campaign's lower quartile of the medians: the usual speed of its CPUs,
    -- whichever product ran (see steady.CPU_REFERENCE_BOUND)
    SELECT h.run_key, max(h.cpu_reference_p50_ns) AS reference_ns, max(h.cpu_reference_p90_ns) AS tail_ns,
           quantile_disc(max(h.cpu_reference_p50_ns), 0.25) OVER (PARTITION BY any_value(r.campaign)) AS campaign_usual_ns
    FROM hosts h JOIN runs r USING (run_key)
    WHERE h.cpu_reference_p50_ns IS NOT NULL
    GROUP BY h.run_key
), slowed AS (
    -- slowed through most of the window (the median), or through more than a tenth of it (the 90th percentile)
    SELECT run_key, reference_ns, tail_ns, campaign_usual_ns,
           reference_ns > {CPU_REFERENCE_BOUND} * campaign_usual_ns AS median_slowed
    FROM cpu_references
    WHERE greatest(reference_ns, tail_ns) > {CPU_REFERENCE_BOUND} * campaign_usual_ns
)
SELECT s.run_key,
       s.steady AND d.elsewhere IS NULL AND w.run_key IS NULL AS steady,
       CASE WHEN s.steady AND d.elsewhere IS NOT NULL
            THEN format('the host had placed its CPUs {} than for most of the campaign''s runs: a cache line''s '
                        || 'round trip between them took {:,} ns at best, against {:,} ns in the campaign''s median '
                        || 'run (bound: x{CAMPAIGN_PLACEMENT_BOUND})', d.elsewhere, d.nearest_ns, d.campaign_median_ns)
            WHEN s.steady AND w.median_slowed
            THEN format('the host slowed the CPU under the stream''s receiving thread: a fixed piece of work there (the '
                        || 'raw socket''s search for the ends of ten orders) took {:,} ns by the median of the stream''s '
                        || 'readings, against {:,} ns in the lower quartile of the campaign''s streams (bound: '
                        || 'x{CPU_REFERENCE_BOUND}), so the stream measured the host''s speed, not the product''s',
                        w.reference_ns, w.campaign_usual_ns)
            WHEN s.steady AND w.run_key IS NOT NULL
            THEN format('the host slowed the CPU under the stream''s receiving thread for more than a tenth of the '
                        || 'stream: a fixed piece of work there (the raw socket''s search for the ends of ten orders) '
                        || 'took {:,} ns or more at over a tenth of the stream''s readings (its 90th percentile; median '
                        || '{:,} ns), against {:,} ns in the lower quartile of the campaign''s streams (bound: '
                        || 'x{CPU_REFERENCE_BOUND}), so part of the stream measured the host''s speed, not the product''s',
                        w.tail_ns, w.reference_ns, w.campaign_usual_ns)
            ELSE s.reason END AS reason
FROM run_steadiness s LEFT JOIN placed d USING (run_key) LEFT JOIN slowed w USING (run_key);

-- Every per-run statistic in long form (statistic, value): what config_stats and diff
-- aggregate. Latency statistics are in ns; 'messages_per_second' in msg/s.
-- steady comes from run_verdicts (false when a run was never assessed).
CREATE OR REPLACE VIEW run_stat_values AS
SELECT v.*, coalesce(s.steady, false) AS steady
FROM (
    SELECT run_key, campaign, product, product_version, scenario, workload_mode, configuration,
           repetition, hardware_fingerprint, metric, statistic, value
    FROM (UNPIVOT (SELECT * EXCLUDE (run_id) FROM run_stats)
          ON count, min_ns, max_ns, mean_ns, stddev_ns, p50_ns, p90_ns, p95_ns, p99_ns, p999_ns, p9999_ns
          INTO NAME statistic VALUE value)
    UNION ALL
    SELECT run_key, campaign, product, product_version, scenario, workload_mode, configuration,
           repetition, hardware_fingerprint, 'throughput', 'messages_per_second', messages_per_second
    FROM throughput_stats
) v LEFT JOIN run_verdicts s USING (run_key);

-- One configuration (campaign x product x version x scenario x mode x configuration)
-- across its repetitions: the median of the per-run figures and their spread.
-- spread_pct = (max - min) / median * 100, the figure to eyeball for noisy machines.
CREATE OR REPLACE VIEW config_stats AS
SELECT campaign, product, product_version, scenario, workload_mode, configuration,
       hardware_fingerprint, metric, statistic,
       count(*)               AS repetitions,
       median(value)          AS median,
       avg(value)             AS mean,
       min(value)             AS min,
       max(value)             AS max,
       stddev_samp(value)     AS stddev,
       (max(value) - min(value)) / nullif(median(value), 0) * 100 AS spread_pct,
       count(*) FILTER (WHERE NOT steady) AS unsteady_repetitions,
       -- the same over the steady repetitions only: what a headline may use (render/release.py steady)
       median(value) FILTER (WHERE steady) AS steady_median,
       min(value) FILTER (WHERE steady)    AS steady_min,
       max(value) FILTER (WHERE steady)    AS steady_max
FROM run_stat_values
GROUP BY campaign, product, product_version, scenario, workload_mode, configuration,
         hardware_fingerprint, metric, statistic;

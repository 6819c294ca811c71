# Benchmark runners (bench-runner/): a campaign of server and client processes over loopback.
#   make bench PROFILE=quick|full [CAMPAIGN=name] [SCENARIOS="rtt-echo throughput"] [PRODUCTS="fixlab raw-socket"]
#              [CONFIGS="optimized busy-spin"] [REPETITIONS=n] [LAUNCHER="onload --profile=latency"] [VERSIONS="0.1.0 HEAD"]
# CONFIGS keeps only those configurations' runs: to repeat one comparison many times (REPETITIONS=20), which a
# noisy machine needs before a ratio of a few percent can be told from its noise.
# VERSIONS measures several versions of the engine side by side in one campaign: each is a release of
# data/releases.csv, a commit or HEAD ("0.2.0=HEAD" names it), built once per commit by
# bench-runner/bin/engine-versions; the same ref twice is an A/A campaign.
# PAUSE_DAMON=1 (as root) switches the kernel's DAMON memory monitors off for the campaign and back on after it: on a VM
# where their time slices keep every paced run from being compared (bench-runner/.../run/DamonPause.java says when).
# Output: data/runs/<campaign>/<run_id>/ (data contract v1). Included by the root Makefile (ROOT).

PROFILE ?= quick
CAMPAIGN ?=
SCENARIOS ?=
PRODUCTS ?=
CONFIGS ?=
REPETITIONS ?= 0
LAUNCHER ?=
VERSIONS ?=
PAUSE_DAMON ?=

.PHONY: bench

bench: build-java ## a benchmark campaign: PROFILE=quick|full SCENARIOS= PRODUCTS= CONFIGS= VERSIONS= REPETITIONS= CAMPAIGN= PAUSE_DAMON=
	cd $(ROOT) && versions="$$(bench-runner/bin/engine-versions $(VERSIONS))" && \
	bench-runner/bin/runBenchCampaign --profile "$(PROFILE)" --campaign "$(CAMPAIGN)" \
		--scenarios "$(SCENARIOS)" --products "$(PRODUCTS)" --configurations "$(CONFIGS)" --repetitions "$(REPETITIONS)" --launcher "$(LAUNCHER)" \
		--versions "$$versions" --pause-damon "$(PAUSE_DAMON)"

# CPU flame graphs (async-profiler, the Linux agent Maven Central ships as tools.profiler:async-profiler,
# version pinned in the root pom) of one run's server and client, in target/profile/<scenario>-<product>-<config>/.
#   make profile PROFILE_SCENARIO=throughput PROFILE_PRODUCT=fixlab PROFILE_CONFIG=optimized PROFILE_ARGS='--messages 2000000'
# PROFILE_INTERVAL is the CPU time between samples. On a 2-core VM the optimized stream (3-4M msg/s unprofiled) ran
# at 1.4-2.3M with 100us and at 4.2M with 1ms: profile a stream with PROFILE_INTERVAL=1ms.
PROFILE_SCENARIO ?= throughput
PROFILE_PRODUCT ?= fixlab
PROFILE_CONFIG ?= optimized
PROFILE_ARGS ?= --messages 2000000 --warmup 3000000
PROFILE_INTERVAL ?= 100us
# PROFILE_PROPERTIES: an engine.properties file both ends of a fixlab run use (PROFILE_CONFIG then names the run),
# to profile one setting changed against a preset, e.g. PROFILE_PROPERTIES=my.properties PROFILE_CONFIG=custom
PROFILE_PROPERTIES ?=
ASYNC_PROFILER_VERSION = $(shell sed -n 's:.*<async-profiler.version>\(.*\)</async-profiler.version>.*:\1:p' $(ROOT)/pom.xml)
ASYNC_PROFILER := $(TOOLS_DIR)/async-profiler/linux-x64/libasyncProfiler.so

.PHONY: profile
profile: build-java $(ASYNC_PROFILER) ## CPU flame graphs of one run's server and client: PROFILE_SCENARIO= PROFILE_PRODUCT= PROFILE_CONFIG= PROFILE_ARGS= PROFILE_INTERVAL= PROFILE_PROPERTIES=
	cd $(ROOT) && PROFILE_INTERVAL=$(PROFILE_INTERVAL) PROFILE_PROPERTIES="$(PROFILE_PROPERTIES)" bench-runner/bin/profile-run $(ASYNC_PROFILER) \
		target/profile/$(PROFILE_SCENARIO)-$(PROFILE_PRODUCT)-$(PROFILE_CONFIG) \
		$(PROFILE_SCENARIO) $(PROFILE_PRODUCT) $(PROFILE_CONFIG) $(PROFILE_ARGS)

# make profile's own test: a short fixlab stream profiled with an engine.properties file of one's own (mk/profile-check.py
# says what must be in its profiles and manifest), and a file that is not there refused before anything starts.
.PHONY: test-profile
test-profile: build-java $(ASYNC_PROFILER) venv ## make profile on a short stream with PROFILE_PROPERTIES, and a missing file refused
	@out="$$(mktemp -d)" && trap 'rm -rf "$$out"' EXIT && \
	printf 'preset=balanced\nstoreType=memory\n' > "$$out/engine.properties" && \
	if ! PROFILE_OUTPUT=collapsed PROFILE_INTERVAL=100us PROFILE_PROPERTIES="$$out/engine.properties" \
		bench-runner/bin/profile-run $(ASYNC_PROFILER) "$$out/profile" throughput fixlab custom \
		--messages 300000 --warmup 300000 > "$$out/run.log" 2>&1; then cat "$$out/run.log"; exit 1; fi && \
	$(VENV_PY) $(ROOT)/mk/profile-check.py "$$out/profile" && \
	if PROFILE_PROPERTIES="$$out/missing.properties" bench-runner/bin/profile-run $(ASYNC_PROFILER) "$$out/refused" \
		throughput fixlab custom 2> "$$out/refused.err"; then echo "test-profile: a missing properties file was not refused"; exit 1; fi && \
	grep -q "no engine.properties file at" "$$out/refused.err" && [ ! -e "$$out/refused" ] && \
	echo "test-profile: passed"

$(ASYNC_PROFILER): | $(TOOLS_DIR)/.gitignore
	$(MVN) -N dependency:copy -Dartifact=tools.profiler:async-profiler:$(ASYNC_PROFILER_VERSION) \
		-DoutputDirectory=$(TOOLS_DIR)/async-profiler
	cd $(TOOLS_DIR)/async-profiler && unzip -qo async-profiler-$(ASYNC_PROFILER_VERSION).jar 'linux-x64/*'

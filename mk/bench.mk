# Benchmark runners (bench-runner/): a campaign of server and client processes over loopback.
#   make bench PROFILE=quick|full [CAMPAIGN=name] [SCENARIOS="rtt-echo throughput"] [PRODUCTS="fixlab raw-socket"]
#              [REPETITIONS=n] [LAUNCHER="onload --profile=latency"] [VERSIONS="0.1.0 HEAD"]
# VERSIONS measures several versions of the engine side by side in one campaign: each is a release of
# data/releases.csv, a commit or HEAD ("0.2.0=HEAD" names it), built once per commit by
# bench-runner/bin/engine-versions; the same ref twice is an A/A campaign.
# Output: data/runs/<campaign>/<run_id>/ (data contract v1). Included by the root Makefile (ROOT).

PROFILE ?= quick
CAMPAIGN ?=
SCENARIOS ?=
PRODUCTS ?=
REPETITIONS ?= 0
LAUNCHER ?=
VERSIONS ?=

.PHONY: bench

bench: build-java ## a benchmark campaign: PROFILE=quick|full SCENARIOS= PRODUCTS= VERSIONS= REPETITIONS= CAMPAIGN=
	cd $(ROOT) && versions="$$(bench-runner/bin/engine-versions $(VERSIONS))" && \
	bench-runner/bin/runBenchCampaign --profile "$(PROFILE)" --campaign "$(CAMPAIGN)" \
		--scenarios "$(SCENARIOS)" --products "$(PRODUCTS)" --repetitions "$(REPETITIONS)" --launcher "$(LAUNCHER)" \
		--versions "$$versions"

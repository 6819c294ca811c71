# Benchmark runners (bench-runner/): a campaign of server and client processes over loopback.
#   make bench PROFILE=quick|full [CAMPAIGN=name] [SCENARIOS="rtt-echo throughput"] [PRODUCTS="fixlab raw-socket"]
#              [REPETITIONS=n] [LAUNCHER="onload --profile=latency"]
# Output: data/runs/<campaign>/<run_id>/ (data contract v1). Included by the root Makefile (ROOT).

PROFILE ?= quick
CAMPAIGN ?=
SCENARIOS ?=
PRODUCTS ?=
REPETITIONS ?= 0
LAUNCHER ?=

.PHONY: bench

bench: build-java
	cd $(ROOT) && bench-runner/bin/runBenchCampaign --profile "$(PROFILE)" --campaign "$(CAMPAIGN)" \
		--scenarios "$(SCENARIOS)" --products "$(PRODUCTS)" --repetitions "$(REPETITIONS)" --launcher "$(LAUNCHER)"

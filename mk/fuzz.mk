# Fuzzing outside CI: Jazzer fuzzes each inbound target (engine/.../reliability/InboundFuzzTest) for
# FUZZ_SECONDS and prints how many inputs it ran. make test only replays the committed corpus.
#   make fuzz FUZZ_SECONDS=600
# A crash stops the run with the log's tail; the crashing input lands under engine/target/fuzz.

FUZZ_SECONDS ?= 300
FUZZ_TARGETS := framerAndDecoder sessionInbound
FUZZ_DIR := $(ROOT)/engine/target/fuzz

.PHONY: fuzz
fuzz: maven ## fuzz the inbound paths with Jazzer for FUZZ_SECONDS a target
	@mkdir -p "$(FUZZ_DIR)"
	@total=0; for target in $(FUZZ_TARGETS); do \
		log="$(FUZZ_DIR)/$$target.log"; \
		echo "fuzz $$target: $(FUZZ_SECONDS) s (log: $$log)"; \
		( cd "$(ROOT)/engine" && JAZZER_FUZZ=1 $(MVN) test -Dtest="InboundFuzzTest#$$target" \
			-Dsurefire.failIfNoSpecifiedTests=false -Djazzer.internal.basedir="$(FUZZ_DIR)" \
			-Djazzer.internal.arg.0=fuzz -Djazzer.internal.arg.1=-max_total_time=$(FUZZ_SECONDS) ) > "$$log" 2>&1 \
			|| { grep -v '^INFO: Instrumented' "$$log" | tail -60; echo "fuzz $$target: FAILED"; exit 1; }; \
		runs=$$(grep -o 'Done [0-9]* runs' "$$log" | tail -1 | cut -d' ' -f2); \
		if [ -z "$$runs" ]; then echo "fuzz $$target: no libFuzzer summary in $$log"; exit 1; fi; \
		echo "fuzz $$target: $$runs inputs, no crash, hang or escaped exception"; \
		total=$$((total + runs)); \
	done; echo "fuzz: $$total inputs in total over $(words $(FUZZ_TARGETS)) targets"

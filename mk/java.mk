# Java build: the engine and the bench runner (Maven), the conformance acceptor and suite.

MVN ?= mvn -B -q
# The project's version, from the root pom (a release changes the poms and nothing else).
PROJECT_VERSION := $(shell sed -n 's:^  <version>\(.*\)</version>:\1:p' $(ROOT)/pom.xml | head -1)
ENGINE_JAR := $(ROOT)/engine/target/fixlab-engine-$(PROJECT_VERSION).jar
ENGINE_CP = $(ENGINE_JAR):$(shell cat $(ROOT)/engine/target/classpath.txt 2>/dev/null)
# The engine's classes with its tests and benchmarks, for the benchmarks that are not a Maven test
ENGINE_TEST_CP = $(ROOT)/engine/target/test-classes:$(ROOT)/engine/target/classes:$$(cat $(ROOT)/engine/target/test-classpath.txt)
JAVA ?= java
# What the engine's JVMs open (the root pom's engine.jvm.flags): its mapped store then maps without allocating
ENGINE_JVM_FLAGS := $(shell sed -n 's:^ *<engine.jvm.flags>\(.*\)</engine.jvm.flags>:\1:p' $(ROOT)/pom.xml)
PORT ?= 9880
DEFS ?= $(SHARED)/conformance/fix42
CONFORMANCE_PORT ?= 9881

.PHONY: maven build-java test-java crash-test acceptor conformance conformance-test demo jmh codec-ab resend-bench

# Maven is the one build tool the Java side needs; install it when the machine lacks it.
maven: ## install Maven when the machine lacks it
	@command -v mvn >/dev/null || { echo "installing Maven"; apt-get update -qq && apt-get install -y -qq maven >/dev/null; }

# The commit the jars are built from goes beside them: run manifests record it, not whatever
# HEAD is when a run starts.
build-java: maven ## build the engine and the benchmark runners (jars, no tests)
	$(MVN) -DskipTests package
	@cd $(ROOT) && commit=$$(git rev-parse --short=7 HEAD 2>/dev/null || echo unknown); \
	  if [ -n "$$(git status --porcelain --untracked-files=no -- engine bench-runner 2>/dev/null)" ]; then commit=$$commit-dirty; fi; \
	  echo $$commit > bench-runner/target/build-commit.txt

# Maven runs quietly and each test's output stays in its module's target/surefire-reports/;
# one counts line per module follows, with the report files of any test that failed.
test-java: maven venv ## the engine and bench-runner tests (mvn verify), one counts line per module
	@stamp=$$(mktemp); $(MVN) verify; status=$$?; \
	  $(VENV_PY) $(ROOT)/mk/surefire-counts.py --since $$stamp $(ROOT)/engine $(ROOT)/bench-runner $(ROOT)/bench-artio \
	  || status=1; rm -f $$stamp; exit $$status

# The crash and power-loss tests with more kills than make test runs (50 acceptor and 25 initiator
# kills per store, 20 power losses per store and policy there), e.g. make crash-test CRASHES=500
CRASHES ?= 200
crash-test: maven ## the crash and power-loss tests with their long counts
	$(MVN) -pl engine test -Dsurefire.failIfNoSpecifiedTests=false \
		-Dtest='AcceptorCrashTest,InitiatorCrashTest,PowerLossTest' \
		-Dfixlab.crashes=$(CRASHES) -Dfixlab.initiatorCrashes=$(CRASHES) -Dfixlab.powerLosses=$$(( $(CRASHES) * 5 ))

# The conformance acceptor in the foreground: prints its PID and port; Ctrl-C stops it.
acceptor: build-java ## the conformance acceptor in the foreground on PORT=9880
	$(JAVA) $(ENGINE_JVM_FLAGS) -cp "$(ENGINE_CP)" org.fixlab.engine.tools.ConformanceAcceptor --port $(PORT) --config $(ROOT)/engine/conformance.properties

# Build, start the acceptor, run the suite on DEFS, stop the acceptor; non-zero on any failure.
conformance: build-java ## run the FIX conformance scripts in DEFS= against the acceptor
	@$(ROOT)/engine/bin/run-conformance "$(ENGINE_CP)" "$(DEFS)" $(CONFORMANCE_PORT) "$(SHARED)/conformance/fixconform.py"

# Part of make test: the FIX.4.2 suite when ../shared/conformance is present.
conformance-test: ## the FIX.4.2 conformance suite of ../shared, as make test runs it
	@if [ -d "$(SHARED)/conformance/fix42" ]; then \
		$(MAKE) --no-print-directory conformance DEFS="$(SHARED)/conformance/fix42"; \
	else echo "conformance: $(SHARED)/conformance/fix42 not found, suite skipped"; fi

# A short demo: acceptor and initiator exchanging orders on loopback, one summary line.
demo: build-java ## an acceptor and an initiator exchanging orders, one summary line
	$(JAVA) $(ENGINE_JVM_FLAGS) -cp "$(ENGINE_CP)" org.fixlab.engine.tools.Demo

# Messages per second a session resends from each store when its peer asks for the whole session
# (engine/src/test/.../session/ResendThroughputBenchmark.java), e.g. make resend-bench RESEND_ARGS='100000 5'
RESEND_ARGS ?= 100000 5
resend-bench: maven ## resend throughput per store for a 100,000-message ResendRequest: RESEND_ARGS='messages runs'
	$(MVN) -pl engine -am -Dmaven.test.skip.exec=true process-test-classes
	$(JAVA) $(ENGINE_JVM_FLAGS) -cp "$(ENGINE_TEST_CP)" \
		org.fixlab.engine.session.ResendThroughputBenchmark $(RESEND_ARGS)

# JMH microbenchmarks of the engine's hot paths (engine/src/test/.../*Benchmark.java), e.g.
#   make jmh JMH_ARGS='CodecBenchmark -f 1'
JMH_ARGS ?=
jmh: maven ## JMH microbenchmarks of the engine: JMH_ARGS='CodecBenchmark'
	$(MVN) -pl engine -am -Dmaven.test.skip.exec=true process-test-classes
	$(JAVA) -cp "$(ENGINE_TEST_CP)" \
		org.openjdk.jmh.Main $(JMH_ARGS)

# CodecBenchmark's work for two engine versions in alternating slices in one JVM (engine/src/test/.../codec/CodecAB.java):
# each version's median ns per call and the change with its 95% interval. BASE is a release of data/releases.csv or
# any commit (built once and cached, as make bench VERSIONS= does); the other side is this checkout. On a noisy VM
# two JMH runs differ by more than most codec changes; alternating slices put the noise on both sides alike. Each
# operation runs in JVMs of its own (the JIT shapes the decoder for the data of the first operation that splits),
# AB_FORKS of them, a line each, then a line per operation across them: faster or slower only when every JVM says so.
# The operations named ...Cold time each call after 64 KiB were read to clear the L1 cache, as a message is built
# or split between two socket calls (a fortieth of the calls per slice; JAVA='java -Dcodecab.evictBytes=2097152' reads 2 MiB).
#   make codec-ab BASE=0.2.0 AB_FORKS=3 AB_ARGS='40 200000'   (slices per version, calls per slice)
BASE ?= $(shell $(ROOT)/bench-runner/bin/engine-versions --latest-release)
AB_FORKS ?= 3
AB_ARGS ?=
codec-ab: build-java ## the codec of BASE= (a release or commit) against this checkout, alternating in one JVM
	$(MVN) -pl engine -am -Dmaven.test.skip.exec=true process-test-classes
	@base="$$($(ROOT)/bench-runner/bin/engine-versions "$(BASE)" | cut -d'|' -f3)" && [ -n "$$base" ] && \
	results="$$(mktemp)" && trap 'rm -f "$$results"' EXIT && \
	operations="$$($(JAVA) -cp "$(ENGINE_TEST_CP)" org.fixlab.engine.codec.CodecAB --operations)" && \
	for operation in $$operations; do for fork in $$(seq 1 $(AB_FORKS)); do \
	echo "$$operation, JVM $$fork of $(AB_FORKS), base $(BASE)"; \
	$(JAVA) -Dcodecab.results="$$results" -Dcodecab.operation=$$operation -cp "$(ENGINE_TEST_CP)" \
		org.fixlab.engine.codec.CodecAB "$$base" "$(ROOT)/engine/target/classes" "$(ROOT)/engine/target/test-classes" \
		"$$(cat $(ROOT)/engine/target/test-classpath.txt)" $(AB_ARGS) || exit 1; done; done && \
	$(JAVA) -cp "$(ENGINE_TEST_CP)" org.fixlab.engine.codec.CodecAB --summary "$$results"

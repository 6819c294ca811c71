# fixlab entry points. Every target installs or builds what it needs.
#   make run    the main job (see README)
#   make test   every test: Java unit/system tests, FIX conformance, pipelines, site
# Parts of the build live in mk/*.mk, one file per part of the project.

SHELL := /bin/bash
.DEFAULT_GOAL := help
ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
SHARED ?= $(abspath $(ROOT)/../shared)
# Tools the build fetches (actionlint, async-profiler) and their install logs live here, ignored by git.
TOOLS_DIR := $(ROOT)/.tools

include mk/java.mk
include mk/bench.mk
include mk/fuzz.mk
include mk/python.mk
include mk/site.mk

$(TOOLS_DIR)/.gitignore:
	@mkdir -p $(TOOLS_DIR) && echo '*' > $@

.PHONY: help run test build
help: ## this list
	@grep -hE '^[a-zA-Z][a-zA-Z0-9_-]*:.*## ' $(MAKEFILE_LIST) | sort \
		| awk 'BEGIN { FS = ":.*## " } { printf "make %-17s %s\n", $$1, $$2 }'

build: build-java venv ## build everything a reproduction step needs: the Java jars and the Python environment

# The main job: a quick campaign on this machine (loopback), ingested with the committed data into
# the DuckDB file, rendered, built and served. Local campaigns are named local-* and not committed.
RUN_CAMPAIGN ?= local-$(shell date -u +%Y%m%dT%H%M%SZ)
run: ## the main job: a quick campaign on this machine, the portal built with it, served on :8000
	$(MAKE) --no-print-directory bench PROFILE=quick CAMPAIGN=$(RUN_CAMPAIGN)
	$(MAKE) --no-print-directory site
	$(MAKE) --no-print-directory serve-site

test: test-java conformance-test test-profile test-python test-site ## every test: Java, FIX conformance, make profile, pipelines, portal in Chromium
	@echo "make test: all suites passed"

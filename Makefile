# fixlab entry points. Every target installs or builds what it needs.
#   make run    the main job (see README)
#   make test   every test: Java unit/system tests, FIX conformance, pipelines, site
# Parts of the build live in mk/*.mk, one file per part of the project.

SHELL := /bin/bash
.DEFAULT_GOAL := help
ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
SHARED ?= $(abspath $(ROOT)/../shared)

include mk/java.mk
include mk/bench.mk
include mk/fuzz.mk
include mk/python.mk
include mk/site.mk

.PHONY: help run test
help:
	@echo "make run    build, run the main job on this machine"
	@echo "make test   run every test (Java, conformance, pipelines, site)"

# The main job: a quick campaign on this machine (loopback), ingested with the committed data into
# the DuckDB file, rendered, built and served. Local campaigns are named local-* and not committed.
RUN_CAMPAIGN ?= local-$(shell date -u +%Y%m%dT%H%M%SZ)
run:
	$(MAKE) --no-print-directory bench PROFILE=quick CAMPAIGN=$(RUN_CAMPAIGN)
	$(MAKE) --no-print-directory site
	$(MAKE) --no-print-directory serve-site

test: test-java conformance-test test-python test-site
	@echo "make test: all suites passed"

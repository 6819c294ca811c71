# Site part of the build: render the results portal from the DuckDB results, build it with
# MkDocs Material, serve it, and test it in a real browser.
# Included by the root Makefile (ROOT); mk/python.mk defines VENV, VENV_PY, FIXLAB, DATA_DB
# and the `data` target that rebuilds the database from what is committed in data/.

SITE_DOCS := $(ROOT)/site
SITE_BUILD := $(ROOT)/site-build
MKDOCS := $(VENV)/bin/mkdocs
SITE_HOST ?= 127.0.0.1
SITE_PORT ?= 8000
# Tools fetched for the checks live in the project, not on the machine (gitignored).
TOOLS_BIN := $(TOOLS_DIR)/bin
ACTIONLINT := $(TOOLS_BIN)/actionlint
# pinned, as every other tool the build fetches (what resolved from the Go module proxy)
ACTIONLINT_VERSION ?= v1.7.12
# The browser tests drive Debian's Chromium; Playwright never downloads a browser.
CHROMIUM := /usr/bin/chromium
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
export NO_MKDOCS_2_WARNING := 1

# DuckDB-Wasm for the SQL page: the npm packages pinned in pipelines' render/wasm_assets.py,
# fetched with npm into .cache/npm, checked against their SHA-256, copied into the docs.
DUCKDB_WASM_DIR := $(SITE_DOCS)/assets/duckdb

.PHONY: site serve-site test-site test-reproduce duckdb-wasm

# The portal from committed data alone: rebuild the database, render the pages, build.
site: data duckdb-wasm ## render and build the portal from the committed data (site-build/)
	cd $(ROOT) && $(FIXLAB) render -- --db $(DATA_DB) --runs $(ROOT)/data/runs \
		--site $(SITE_DOCS) --mkdocs $(ROOT)/mkdocs.yml
	cd $(ROOT) && $(MKDOCS) build --strict --config-file $(ROOT)/mkdocs.yml

serve-site: $(VENV)/.installed ## serve the built portal on http://127.0.0.1:8000/
	@test -f $(SITE_BUILD)/index.html || { echo "serve-site: nothing built in $(SITE_BUILD); run 'make site' first" >&2; exit 1; }
	@echo "fixlab results portal: http://$(SITE_HOST):$(SITE_PORT)/  (Ctrl-C stops it)"
	$(VENV_PY) -m http.server $(SITE_PORT) --bind $(SITE_HOST) --directory $(SITE_BUILD)

# Render and build tests (sample runs in a temporary folder), the browser tests over the
# built site, the committed data's own build, and the workflows' lint. The committed data's
# build is `make site` as the SQL page prints it, run by test_render_guide_commands.py.
# Named first so that the workers start on the longest files (each runs a build of its own) and do not
# end on them; pytest collects a file named twice once.
SLOWEST_SITE_TESTS := tests/test_render_reproduce.py tests/test_render_guide_commands.py
test-site: $(VENV)/.installed $(ACTIONLINT) $(CHROMIUM) duckdb-wasm ## render, browser and build tests of the portal, workflow lint
	$(ACTIONLINT) $(ROOT)/.github/workflows/*.yml
	cd $(ROOT)/pipelines && $(PYTEST) $(SLOWEST_SITE_TESTS) tests/test_render*.py tests/browser

# The latest release page's reproduction steps exactly as printed, in a fresh clone of HEAD:
# make build, then the first command block of every scenario (make test runs the first block).
test-reproduce: $(VENV)/.installed ## the latest release's printed build step and commands (one block a scenario) in a fresh clone
	cd $(ROOT)/pipelines && FIXLAB_REPRODUCE=scenarios $(VENV_PY) -m pytest -q tests/test_render_reproduce.py -k fresh_clone

duckdb-wasm: $(VENV)/.installed ## fetch the pinned DuckDB-Wasm (npm registry, SHA-256 checked) into the site
	@command -v npm >/dev/null || { echo "installing npm"; apt-get update -qq && apt-get install -y -qq npm >/dev/null; }
	cd $(ROOT) && $(VENV_PY) -m fixlab_pipelines.render.wasm_assets $(DUCKDB_WASM_DIR) --cache $(ROOT)/.cache/npm

$(ACTIONLINT): | $(TOOLS_DIR)/.gitignore
	@echo "installing actionlint $(ACTIONLINT_VERSION) (Go module proxy)"
	@GOBIN=$(TOOLS_BIN) go install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION) > $(TOOLS_DIR)/go-actionlint.log 2>&1 \
		|| { cat $(TOOLS_DIR)/go-actionlint.log; exit 1; }

# apt's own lines go to a log under .tools/ (hundreds of them); only a failure prints it.
$(CHROMIUM): | $(TOOLS_DIR)/.gitignore
	@echo "installing Debian's chromium (log: .tools/apt-chromium.log)"
	@{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } > $(TOOLS_DIR)/apt-chromium.log 2>&1 \
		|| { cat $(TOOLS_DIR)/apt-chromium.log; exit 1; }

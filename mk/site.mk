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
TOOLS_BIN := $(ROOT)/.tools/bin
ACTIONLINT := $(TOOLS_BIN)/actionlint
ACTIONLINT_VERSION ?= latest
# The browser tests drive Debian's Chromium; Playwright never downloads a browser.
CHROMIUM := /usr/bin/chromium
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
export NO_MKDOCS_2_WARNING := 1

.PHONY: site serve-site test-site

# The portal from committed data alone: rebuild the database, render the pages, build.
site: data ## render and build the portal from the committed data (site-build/)
	cd $(ROOT) && $(FIXLAB) render -- --db $(DATA_DB) --runs $(ROOT)/data/runs \
		--site $(SITE_DOCS) --mkdocs $(ROOT)/mkdocs.yml
	cd $(ROOT) && $(MKDOCS) build --strict --config-file $(ROOT)/mkdocs.yml

serve-site: $(VENV)/.installed ## serve the built portal on http://127.0.0.1:8000/
	@test -f $(SITE_BUILD)/index.html || { echo "serve-site: nothing built in $(SITE_BUILD); run 'make site' first" >&2; exit 1; }
	@echo "fixlab results portal: http://$(SITE_HOST):$(SITE_PORT)/  (Ctrl-C stops it)"
	$(VENV_PY) -m http.server $(SITE_PORT) --bind $(SITE_HOST) --directory $(SITE_BUILD)

# Render and build tests (sample runs in a temporary folder), the browser tests over the
# built site, the committed data's own build, and the workflows' lint.
test-site: $(VENV)/.installed $(ACTIONLINT) $(CHROMIUM) ## render, browser and build tests of the portal, workflow lint
	$(ACTIONLINT) $(ROOT)/.github/workflows/*.yml
	cd $(ROOT)/pipelines && $(VENV_PY) -m pytest -q tests/test_render*.py tests/browser
	$(MAKE) -C $(ROOT) site

$(ACTIONLINT):
	mkdir -p $(TOOLS_BIN)
	echo '*' > $(ROOT)/.tools/.gitignore
	GOBIN=$(TOOLS_BIN) go install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)

$(CHROMIUM):
	apt-get update
	apt-get install -y chromium

# Python part of the build: the virtualenv shared by pipelines and site, pipeline tests,
# and the DuckDB results database rebuilt from what is committed in data/.
# Included by the root Makefile, which defines ROOT and SHARED.

PYTHON ?= python3.11
VENV := $(ROOT)/.venv
VENV_PY := $(VENV)/bin/python
FIXLAB := $(VENV)/bin/fixlab
DATA_DB := $(ROOT)/data/fixlab.duckdb

.PHONY: venv test-python data sql

venv: $(VENV)/.installed ## the Python environment of the pipelines and the portal (.venv)

# Re-installed whenever the one place that pins every Python dependency changes.
$(VENV)/.installed: $(ROOT)/pipelines/pyproject.toml
	test -x $(VENV_PY) || $(PYTHON) -m venv $(VENV)
	$(VENV_PY) -m pip install --quiet -e '$(ROOT)/pipelines[dev]'
	touch $@

# pytest-xdist: one worker per core (PYTEST_WORKERS=0 runs in this process, one test at a time). A test
# file goes to one worker whole: the files that run `make data` or `make site` in the repository keep
# those runs apart, and a file's session fixtures (a built portal, a browser) are built once.
PYTEST_WORKERS ?= auto
PYTEST := $(VENV_PY) -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile

# The portal's render tests belong to test-site (mk/site.mk), which runs them once.
test-python: $(VENV)/.installed ## the pipeline tests (ruff and pytest, browser tests excluded)
	cd $(ROOT)/pipelines && $(VENV)/bin/ruff check .
	cd $(ROOT)/pipelines && $(PYTEST) -m "not browser" --ignore-glob='tests/test_render*.py'

# The database is a cache of data/: runs, releases.csv and reference/ are the source.
data: $(VENV)/.installed ## rebuild data/fixlab.duckdb from the committed data/
	$(FIXLAB) ingest --db $(DATA_DB) --rebuild $(ROOT)/data/runs

# The duckdb command is the duckdb-cli package pinned with the duckdb package in pyproject.toml;
# db.py writes the database in the storage format that version reads.
sql: data ## open the results database in the duckdb command (.venv/bin/duckdb data/fixlab.duckdb)
	$(VENV)/bin/duckdb $(DATA_DB)

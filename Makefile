# croupier: the two set-up commands are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The 25 slowest tests are listed at the end of every run (where the suite's time goes).
PYTEST_FLAGS ?= --durations=25
# The suite runs on three workers (pytest-xdist), a test module per worker at a time so that its
# fixtures are built once; XDIST= runs it in one process. Three on two cores: the tests wait on
# servers, browsers and timers much of the time (`bash .ci/run` in a fresh clone here: 24 min
# 40 s of pytest on two workers, 23 min 37 s on three; in the checkout 19 min 4 s on three and
# 23 min 14 s on four).
XDIST ?= -n 3 --dist loadfile
# The module doctests of the pure layers (L0-L3: core values, evaluator, engines, analysis,
# history), run by `make test` before the suite.
DOCTESTS := src/croupier/cards.py src/croupier/chips.py src/croupier/deck.py \
	src/croupier/errors.py src/croupier/evaluator src/croupier/games src/croupier/analysis \
	src/croupier/history

.PHONY: run test test-all lint doctest bench clean

# The install steps live in scripts/install.sh, which the Dockerfile runs too.
$(STAMP): pyproject.toml constraints.txt scripts/install.sh
	PYTHON=$(PYTHON) VENV=$(VENV) sh scripts/install.sh
	touch $(STAMP)

# Rebuild the compiled Hold'em engine when its sources change (scripts/build_native.py; without
# a C compiler it only says so, and the pure-Python engine runs).
HOLDEM := src/croupier/games/holdem
NATIVE := $(HOLDEM)/native.sha256
$(NATIVE): $(wildcard $(HOLDEM)/*.py) scripts/build_native.py | $(STAMP)
	$(BIN)/python scripts/build_native.py

# The manifest the server checks its files against (issue 30): written again whenever a file of
# the package changes, so that what `make run` and `make test` start is what the manifest says;
# the changed sources are byte-compiled first (scripts/install.sh says why).
MANIFEST := src/croupier/manifest.json
PACKAGE_FILES := $(shell find src/croupier -type f ! -path '*/__pycache__/*' ! -name '*.pyc' \
	! -name 'manifest.json' ! -name '.manifest.json.*')
$(MANIFEST): $(PACKAGE_FILES) $(NATIVE) | $(STAMP)
	$(BIN)/python -m compileall -q src/croupier
	$(BIN)/croupier verify --write

run: $(STAMP) $(NATIVE) $(MANIFEST)
	$(BIN)/croupier run

lint: $(STAMP) $(NATIVE) $(MANIFEST)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy src
	$(BIN)/lint-imports

test: lint doctest
	sh scripts/js-check.sh
	$(BIN)/pytest $(XDIST) $(PYTEST_FLAGS)

doctest: $(STAMP)
	$(BIN)/pytest -q --doctest-modules -p no:cacheprovider $(DOCTESTS)

test-all: lint doctest
	sh scripts/js-check.sh
	$(BIN)/pytest -m 'not hours' $(XDIST) $(PYTEST_FLAGS)

bench: $(STAMP) $(NATIVE)
	$(BIN)/croupier bench eval

clean:
	[ ! -x $(BIN)/python ] || $(BIN)/python scripts/build_native.py --clean
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# croupier: the two set-up commands are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST_FLAGS ?=

.PHONY: run test test-all lint bench clean

# The install steps live in scripts/install.sh, which the Dockerfile runs too.
$(STAMP): pyproject.toml scripts/install.sh
	PYTHON=$(PYTHON) VENV=$(VENV) sh scripts/install.sh
	touch $(STAMP)

# Rebuild the compiled Hold'em engine when its sources change (scripts/build_native.py; without
# a C compiler it only says so, and the pure-Python engine runs).
HOLDEM := src/croupier/games/holdem
NATIVE := $(HOLDEM)/native.sha256
$(NATIVE): $(wildcard $(HOLDEM)/*.py) scripts/build_native.py | $(STAMP)
	$(BIN)/python scripts/build_native.py

run: $(STAMP) $(NATIVE)
	$(BIN)/croupier run

lint: $(STAMP) $(NATIVE)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy src
	$(BIN)/lint-imports

test: lint
	sh scripts/js-check.sh
	$(BIN)/pytest $(PYTEST_FLAGS)

test-all: lint
	sh scripts/js-check.sh
	$(BIN)/pytest -m '' $(PYTEST_FLAGS)

bench: $(STAMP) $(NATIVE)
	$(BIN)/croupier bench eval

clean:
	[ ! -x $(BIN)/python ] || $(BIN)/python scripts/build_native.py --clean
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

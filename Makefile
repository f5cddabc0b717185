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

run: $(STAMP)
	$(BIN)/croupier run

lint: $(STAMP)
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

bench: $(STAMP)
	$(BIN)/croupier bench eval

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

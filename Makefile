# croupier: the two set-up commands are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST_FLAGS ?=
# The module doctests of the pure layers (L0-L3: core values, evaluator, engines, analysis,
# history), run by `make test` before the suite.
DOCTESTS := src/croupier/cards.py src/croupier/chips.py src/croupier/deck.py \
	src/croupier/errors.py src/croupier/evaluator src/croupier/games src/croupier/analysis \
	src/croupier/history

.PHONY: run test test-all lint doctest bench clean

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

test: lint doctest
	sh scripts/js-check.sh
	$(BIN)/pytest $(PYTEST_FLAGS)

doctest: $(STAMP)
	$(BIN)/pytest -q --doctest-modules -p no:cacheprovider $(DOCTESTS)

test-all: lint doctest
	sh scripts/js-check.sh
	$(BIN)/pytest -m '' $(PYTEST_FLAGS)

bench: $(STAMP)
	$(BIN)/croupier bench eval

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# Two entry points for a fresh machine with Python 3.11 and make:
#   make results   regenerate everything in results/
#   make test      run the test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: results test test-slow bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

results: $(STAMP)
	$(BIN)/python experiments/first_click.py
	$(BIN)/python experiments/opening_maps.py

test: $(STAMP)
	$(BIN)/python -m pytest

test-slow: $(STAMP)
	$(BIN)/python -m pytest --runslow

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_first_click.py

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache

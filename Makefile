# Two entry points for a fresh machine with Python 3.11 and make:
#   make results   regenerate everything in results/
#   make test      run the test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: results test test-slow docs bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

results: $(STAMP)
	$(BIN)/minestats reproduce

# Two workers (pytest-xdist), a test file each at a time: a module's tests share its
# module-scoped fixtures (one docs build, one uninterrupted sweep) on one worker.
test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadfile

test-slow: $(STAMP)
	$(BIN)/python -m pytest --runslow

# The documentation site, warnings as errors: open docs/_build/html/index.html.
docs: $(STAMP)
	$(BIN)/python -m sphinx -W --keep-going -b html docs docs/_build/html

bench: $(STAMP)
	for script in benchmarks/bench_*.py; do \
		$(BIN)/python -m benchmarks.$$(basename $$script .py) || exit 1; done

lint: $(STAMP)
	$(BIN)/ruff check .

# numba's on-disk cache does not notice a change in a function compiled into another
# module's kernel; clean it whenever a kernel behaves as if its code had not changed.
clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache docs/_build docs/api docs/results/_files \
		docs/results/_notebooks docs/_games
	find . -name "*.nbi" -o -name "*.nbc" | xargs rm -f

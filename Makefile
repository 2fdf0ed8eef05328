# Everything a fresh machine needs (python3 >= 3.11, bash, make) is installed from here.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.stamp-run
DEV_STAMP := $(VENV)/.stamp-dev

.PHONY: run test lint bench install dev clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@ $(RUN_STAMP)

install: $(RUN_STAMP)
dev: $(DEV_STAMP)

run: $(RUN_STAMP)
	@$(BIN)/swebash

test: $(DEV_STAMP)
	$(BIN)/python -m pytest -q -n 2

lint: $(DEV_STAMP)
	$(BIN)/ruff check swebash tests bench
	$(BIN)/mypy --strict swebash

bench: $(DEV_STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info

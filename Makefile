# Everything a fresh machine needs (python3 >= 3.11, bash, make) is installed from here.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.stamp-run
DEV_STAMP := $(VENV)/.stamp-dev
LAUNCHER := $(VENV)/.stamp-launcher

.PHONY: run test lint bench install install-shell dev clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@ $(RUN_STAMP)

# The `swebash` command is a small C launcher (launcher/swebash.c) compiled over pip's console
# script, so a login shell started as "-swebash" (login, sshd, su -) is seen as one. Without a
# C compiler the console script stays: everything works but that login detection.
$(LAUNCHER): $(RUN_STAMP) launcher/swebash.c
	@if command -v $(CC) >/dev/null 2>&1 && $(CC) -O2 -Wall -o $(BIN)/swebash.new \
	    -DSWEBASH_PYTHON='"$(abspath $(BIN))/python"' launcher/swebash.c; then \
	  mv -f $(BIN)/swebash.new $(BIN)/swebash && touch $@; \
	else \
	  rm -f $(BIN)/swebash.new; \
	  echo "swebash: no C compiler ($(CC)): $(BIN)/swebash stays a Python script, which works" \
	       "but cannot see a login shell's -swebash; see README, 'Using swebash as your login shell'"; \
	fi

install: $(RUN_STAMP) $(LAUNCHER)
dev: $(DEV_STAMP) $(LAUNCHER)

run: $(RUN_STAMP) $(LAUNCHER)
	@$(BIN)/swebash

# adds $(BIN)/swebash to /etc/shells (needs root), so `chsh -s` accepts it
install-shell: install
	$(BIN)/swebash --install-shell

test: $(DEV_STAMP) $(LAUNCHER)
	$(BIN)/python -m pytest -q -n 2

lint: $(DEV_STAMP)
	$(BIN)/ruff check swebash tests bench
	$(BIN)/mypy --strict swebash

bench: $(DEV_STAMP) $(LAUNCHER)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info

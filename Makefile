# Two commands do all the set-up on a fresh machine that has only Python and pip:
#   make run   creates .venv, installs the bot and starts it
#   make test  creates .venv, installs the bot with its dev tools, runs lint, types and every test
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run test lint types unit bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

$(VENV)/.bench: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	touch $@

run: $(VENV)/.installed
	$(PY) -m bot

test: lint types unit

lint: $(VENV)/.installed
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

types: $(VENV)/.installed
	$(PY) -m mypy --strict engine
	$(PY) -m mypy --strict bot cogs
	$(PY) -m mypy --strict fakediscord

unit: $(VENV)/.installed
	$(PY) -m pytest

bench: $(VENV)/.bench
	$(PY) -m bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis

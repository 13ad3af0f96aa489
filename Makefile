# The two set-up commands of the README. Both build .venv from scratch when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install demo lint test

$(BIN)/ari: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[test]'
	touch $(BIN)/ari

install: $(BIN)/ari

demo: install
	$(BIN)/ari ask "Who was the last to criticise Iran before Pervez Musharraf did?" --trace

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest tests

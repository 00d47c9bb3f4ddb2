# deckwright — `make build` sets everything up and builds all games; `make test` runs the tests.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Shared libraries CairoSVG and WeasyPrint load at run time, the press PDFs' tools (Ghostscript
# renders pages for preflight, ArgyllCMS builds the default CMYK profile from icc-profiles-free's
# FOGRA39 data), and the browser the studio's tests drive (Playwright's own browser download is
# not used); installed only when missing.
SYSTEM_PACKAGES := libcairo2 libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 fontconfig \
	ghostscript argyll icc-profiles-free chromium

.PHONY: build test validate lint format bench clean system

build: $(STAMP)
	$(BIN)/deckwright build

test: $(STAMP)
	$(BIN)/python -m pytest

validate: $(STAMP)
	$(BIN)/deckwright validate

lint: $(STAMP)
	$(BIN)/ruff check src tests tools
	$(BIN)/ruff format --check src tests tools
	$(BIN)/lint-imports  # the layers of .importlinter: no backward import

format: $(STAMP)
	$(BIN)/ruff format src tests tools
	$(BIN)/ruff check --fix src tests tools

system:
	@missing=""; \
	for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing system packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(STAMP): pyproject.toml | system
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

bench: $(STAMP)
	$(BIN)/python tools/bench.py

clean:
	rm -rf build .pytest_cache .ruff_cache

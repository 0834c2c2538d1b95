#!/usr/bin/env bash
# make package-test: the built bundle and tarball pass the smoke check from another folder; the .deb
# installs with apt-get, its `limbic --smoke` passes, its `limbic mcp` answers and syncs two graphs, and it
# uninstalls without leaving /opt/limbic.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PY:-$ROOT/.venv/bin/python}
BUNDLE=$ROOT/dist/limbic
DEB=$(ls "$ROOT"/dist/limbic_*.deb 2>/dev/null | tail -n 1 || true)
TARBALL=$(ls "$ROOT"/dist/limbic-*-linux-*.tar.gz 2>/dev/null | tail -n 1 || true)
if [ ! -x "$BUNDLE/limbic" ] || [ -z "$DEB" ] || [ -z "$TARBALL" ]; then
  echo "package-test: no build in dist/ (run make package first)" >&2
  exit 1
fi
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
step() { printf '\n== %s\n' "$*"; }

step "bundle: limbic --smoke from another folder"
(cd "$tmp" && "$BUNDLE/limbic" --smoke)

step "tarball: unpacked elsewhere, limbic --smoke"
mkdir "$tmp/unpacked"
tar -xzf "$TARBALL" -C "$tmp/unpacked"
(cd / && "$tmp/unpacked/limbic/limbic" --smoke)

step "deb: apt-get install $(basename "$DEB")"
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y -qq "$DEB" >"$tmp/apt.log" 2>&1; then
  $SUDO apt-get update -qq  # stale package lists: the dependencies could not be fetched
  $SUDO apt-get install -y -qq "$DEB" >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log"; exit 1; }
fi
test "$(readlink -f /usr/bin/limbic)" = /opt/limbic/limbic
test -f /usr/share/applications/limbic.desktop
test -f /usr/share/icons/hicolor/256x256/apps/limbic.png
if command -v desktop-file-validate >/dev/null; then desktop-file-validate /usr/share/applications/limbic.desktop; fi

step "deb: contents, linkage against the installed system, size"
"$PY" packaging/check_package.py --bundle /opt/limbic --deb "$DEB"

step "deb: the installed limbic --smoke"
(cd "$tmp" && /usr/bin/limbic --smoke)

step "deb: the installed limbic mcp answers initialize, tools/list, a write and a hybrid search over stdio"
(cd "$tmp" && "$PY" "$ROOT/packaging/mcp_handshake.py" --exe /usr/bin/limbic)

step "deb: two installed limbic mcp servers on two graphs joined to one folder sync each other's writes"
(cd "$tmp" && "$PY" "$ROOT/packaging/mcp_sync_check.py" --exe /usr/bin/limbic)

step "deb: the installed app on an X server (Xvfb, Qt's xcb plugin): start-up time"
command -v xvfb-run >/dev/null || $SUDO apt-get install -y -qq xvfb xauth >"$tmp/apt.log" 2>&1 || true
if command -v xvfb-run >/dev/null; then
  xvfb-run -a -s "-screen 0 1280x800x24" "$PY" packaging/measure_startup.py --exe /usr/bin/limbic --platform xcb --runs 3
else
  echo "(no Xvfb: timing offscreen)"
  "$PY" packaging/measure_startup.py --exe /usr/bin/limbic --runs 3
fi

step "deb: apt-get remove"
$SUDO apt-get remove -y -qq limbic >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log"; exit 1; }
if dpkg -s limbic >/dev/null 2>&1 && [ "$(dpkg-query -W -f '${db:Status-Status}' limbic)" = installed ]; then
  echo "package-test: limbic is still installed" >&2; exit 1
fi
for left in /opt/limbic /usr/bin/limbic /usr/share/applications/limbic.desktop; do
  if [ -e "$left" ] || [ -L "$left" ]; then echo "package-test: $left is left after removal" >&2; exit 1; fi
done
echo
echo "package-test: ok"

"""Run the real window under Xvfb, openbox and the AT-SPI bus, open an entity and the side panels with keys,
and print what a screen reader is told (tests/ui/atspi_walk.py, as JSON).

Usage: .venv/bin/python scripts/atspi_check.py [--scale 1.5] [--size 1366x768] [--shot out.png]
Needs: xvfb openbox xdotool at-spi2-core python3-pyatspi dbus-x11 (make test-deps installs them).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEEDS = ("Xvfb", "openbox", "xdotool", "dbus-run-session")
LAUNCHER = "/usr/libexec/at-spi-bus-launcher"


def free_display() -> int:
    for number in range(80, 100):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            return number
    sys.exit("atspi_check: no free X display between :80 and :99")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", default="1")
    parser.add_argument("--size", default="1366x768")
    parser.add_argument("--shot", default="")
    args = parser.parse_args()
    missing = [p for p in NEEDS if not shutil.which(p)] + ([] if Path(LAUNCHER).exists() else [LAUNCHER])
    if missing:
        sys.exit(f"atspi_check: missing {', '.join(missing)} (make test-deps installs them)")
    work = Path(tempfile.mkdtemp(prefix="limbic-atspi-"))
    env = dict(os.environ, LIMBIC_HOME=str(work / "home"))
    env.pop("QT_QPA_PLATFORM", None)
    db = work / "graph.db"
    subprocess.run([sys.executable, "-m", "limbic", "--db", str(db), "import",
                    str(ROOT / "resources" / "sample_graph.jsonl")], env=env, check=True, capture_output=True)
    display = free_display()
    q = shlex.quote
    shot = f"import -display :{display} -window root {q(args.shot)};" if args.shot else ""
    inner = f"""
set -u
{LAUNCHER} --launch-immediately & bus=$!
Xvfb :{display} -screen 0 {args.size}x24 -nolisten tcp & x=$!
for i in $(seq 50); do [ -e /tmp/.X11-unix/X{display} ] && break; sleep 0.1; done
export DISPLAY=:{display}
openbox & wm=$!
sleep 1
QT_QPA_PLATFORM=xcb QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 QT_ACCESSIBILITY=1 QT_SCALE_FACTOR={q(args.scale)} \
  {q(sys.executable)} -m limbic --db {q(str(db))} >{q(str(work / 'app.log'))} 2>&1 & app=$!
for i in $(seq 60); do xdotool search --onlyvisible --name Limbic >/dev/null 2>&1 && break; sleep 0.5; done
sleep 6
win=$(xdotool search --onlyvisible --name Limbic | head -1)
xdotool windowactivate --sync $win 2>/dev/null; sleep 0.5
xdotool key ctrl+o; sleep 1; xdotool type --delay 40 'Harbor API'; sleep 1.5; xdotool key Return; sleep 2
xdotool key ctrl+shift+f; sleep 1; xdotool key ctrl+shift+a; sleep 2; xdotool key ctrl+g; sleep 3
{shot}
/usr/bin/python3 {q(str(ROOT / 'tests' / 'ui' / 'atspi_walk.py'))} ; rc=$?
kill $app; sleep 1; kill $wm $x $bus 2>/dev/null
wait $app 2>/dev/null
exit $rc
"""
    out = subprocess.run(["dbus-run-session", "--", "bash", "-c", inner], env=env, capture_output=True, text=True,
                         timeout=240)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    shutil.rmtree(work, ignore_errors=True)
    if not lines:
        print(out.stdout[-2000:], out.stderr[-2000:], file=sys.stderr)
        return 1
    print(lines[-1])
    return 0 if "error" not in json.loads(lines[-1]) else 1


if __name__ == "__main__":
    sys.exit(main())

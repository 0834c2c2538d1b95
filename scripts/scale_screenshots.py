"""The window on every common screen and scale, under Xvfb and openbox: a screenshot of each state, and a check.

Usage: .venv/bin/python scripts/scale_screenshots.py [--out DIR]   (scripts/screenshots.py --scales runs it)

For 1366×768 at 100, 125 and 150 % and 1920×1080 at 100, 125, 150 and 200 %, it starts an X server of that
size with a window manager, runs tests/ui/fit_probe.py in it with QT_SCALE_FACTOR (the sample graph, an entity
open, then the search filters with Activity, Memory health and the graph, maximised and not), saves the whole
screen in each state as DIR/scale-WxH@S-STATE.png, and ends with an error when the window's frame or any
control was off the screen.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCREENS = [((1366, 768), "1"), ((1366, 768), "1.25"), ((1366, 768), "1.5"),
           ((1920, 1080), "1"), ((1920, 1080), "1.25"), ((1920, 1080), "1.5"), ((1920, 1080), "2")]


def _display() -> int:
    for number in range(80, 100):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            return number
    sys.exit("scale_screenshots: no free X display between :80 and :99")


def one(size: tuple[int, int], scale: str, out: Path) -> list[str]:
    """Run the probe on one screen; returns what was off the screen (empty when all fits)."""
    number = _display()
    xvfb = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wm = None
    work = Path(tempfile.mkdtemp(prefix="limbic-scales-"))
    try:
        for _ in range(50):
            if Path(f"/tmp/.X11-unix/X{number}").exists():
                break
            time.sleep(0.1)
        env = dict(os.environ, DISPLAY=f":{number}", QT_QPA_PLATFORM="xcb", QT_SCALE_FACTOR=scale,
                   LIMBIC_HOME=str(work / "home"), PYTHONPATH=os.pathsep.join([str(ROOT / "app"), str(ROOT)]))
        wm = subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
        shots = work / "shots"
        run = subprocess.run([sys.executable, "-m", "tests.ui.fit_probe", str(work / "g.db"), str(shots)], env=env,
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
        if run.returncode != 0:
            return [f"the probe failed: {run.stderr[-800:]}"]
        states = json.loads(run.stdout.strip().splitlines()[-1])
        tag = f"{size[0]}x{size[1]}@{scale}"
        problems = []
        for s in states:
            shutil.copyfile(shots / f"{s['state']}.png", out / f"scale-{tag}-{s['state']}.png")
            ax, ay, aw, ah = s["area"]
            # A maximised window's borders are the window manager's to place (openbox puts them past the edges).
            x, y, w, h = s["client"] if s["maximised"] else s["frame"]
            if x < ax or y < ay or x + w > ax + aw + 1 or y + h > ay + ah + 1:
                problems.append(f"{tag} {s['state']}: frame {s['frame']} outside {s['area']}")
            problems += [f"{tag} {s['state']}: {o}" for o in s["off"]]
        print(f"{tag}: " + ", ".join(f"{s['state']} {s['frame'][2]}x{s['frame'][3]}"
                                      f"{' one column' if s['one_column'] else ''}" for s in states))
        return problems
    finally:
        if wm is not None:
            wm.terminate()
            wm.wait(5)
        xvfb.terminate()
        xvfb.wait(5)
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = parser.parse_args(argv)
    for program in ("Xvfb", "openbox"):
        if not shutil.which(program):
            sys.exit(f"scale_screenshots: {program} is not installed (make test-deps installs it)")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    problems = [p for size, scale in SCREENS for p in one(size, scale, out)]
    for p in problems:
        print("OFF SCREEN:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

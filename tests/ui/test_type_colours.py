"""A type keeps its colour in every view and every run, and the colours stay apart in light and dark."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

from limbic.ui.graph.scene import Scene
from limbic.ui.common.type_colours import type_colour

COMMON = ["Person", "Project", "Tool", "Session", "Decision", "Ticket", "Skill", "Event", "Book", "Release"]


def _scene(type_names: list[str]) -> Scene:
    n = len(type_names)
    return Scene(ids=np.arange(n), pos=np.zeros((n, 2)), types=np.arange(n, dtype=np.int32), type_names=type_names,
                 degree=np.ones(n, dtype=np.int32), kinds=np.zeros(n, dtype=np.int8), labels=type_names)


def test_a_type_has_the_same_colour_whatever_else_the_view_holds():
    local = _scene(["Skill", "Person"])
    whole = _scene(["Person", "Project", "Tool", "Session", "Skill"])
    filtered = _scene(["Skill"])
    for dark in (False, True):
        skill = {s.colours(dark)[s.type_names.index("Skill")] for s in (local, whole, filtered)}
        assert len(skill) == 1, skill
    assert type_colour("skill") == type_colour(" Skill ")  # the same type written another way


def test_the_colour_survives_a_restart():
    code = "from limbic.ui.common.type_colours import type_colour; print(type_colour('Skill'), type_colour('Person', True))"
    runs = set()
    for seed in ("1", "2"):  # Python's own hash changes between runs: the colour must not
        env = dict(os.environ, PYTHONHASHSEED=seed)
        runs.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout)
    assert runs == {f"{type_colour('Skill')} {type_colour('Person', True)}\n"}


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _distance(a: str, b: str) -> float:
    return float(np.linalg.norm(np.array([int(a[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)
                                - np.array([int(b[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)))


def test_common_types_are_distinguishable_in_light_and_dark():
    for dark, background in ((False, "#ffffff"), (True, "#17191b")):
        colours = [type_colour(t, dark) for t in COMMON]
        assert len(set(colours)) == len(COMMON)
        assert min(_distance(a, b) for i, a in enumerate(colours) for b in colours[i + 1:]) > 40
        # Discs and legend dots stand out from the background (3:1, the contrast asked of graphics).
        assert min(_contrast(c, background) for c in colours) >= 3.0

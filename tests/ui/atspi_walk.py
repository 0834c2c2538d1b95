"""Print, as JSON, the interactive AT-SPI nodes of the running Limbic window and which have no accessible name.

Run with the system Python (``/usr/bin/python3``, where Debian's python3-pyatspi lives) inside the D-Bus session
of the app (``scripts/atspi_check.py`` sets both up). Counts what a screen reader such as Orca is told.
"""

import json
import sys

import pyatspi

INTERACTIVE = {"push button", "check box", "combo box", "text", "entry", "spin button", "list", "tree", "table",
               "slider", "toggle button", "radio button", "tree table", "password text", "list box"}


def walk(node, path=(), out=None, showing=True):
    out = [] if out is None else out
    try:
        role, name = node.getRoleName(), (node.name or "").strip()
        state = node.getState()
        shown = showing and state.contains(pyatspi.STATE_SHOWING)
        out.append({"role": role, "name": name, "path": list(path + (role,)), "showing": shown,
                    "description": (node.description or "").strip()})
        for i in range(node.childCount):
            child = node.getChildAtIndex(i)
            if child is not None:
                walk(child, path + (role,), out, shown)
    except Exception:  # a node that vanished while walking
        pass
    return out


def main() -> int:
    desktop = pyatspi.Registry.getDesktop(0)
    apps = [desktop.getChildAtIndex(i) for i in range(desktop.childCount)]
    app = next((a for a in apps if a is not None and (a.name or "").lower().startswith("limbic")), None)
    if app is None:
        print(json.dumps({"error": "no Limbic window on the accessibility bus",
                          "apps": [a.name for a in apps if a is not None]}))
        return 1
    nodes = walk(app)
    # A combo box's own popup list and line edit are announced through the combo box's name.
    interactive = [n for n in nodes if n["role"] in INTERACTIVE and n["showing"]
                   and not (len(n["path"]) > 1 and n["path"][-2] == "combo box")]
    unnamed = [" > ".join(n["path"][-5:]) for n in interactive if not n["name"]]
    literal = [n["name"] for n in nodes if "&" in n["name"].replace("&&", "") and n["role"] in ("label", "push button")]
    menus = [n["name"] for n in nodes if n["role"] == "menu item" and len(n["path"]) > 1 and n["path"][-2] == "menu bar"]
    print(json.dumps({"interactive": len(interactive), "unnamed": unnamed, "literal_ampersands": literal,
                      "menus": menus, "names": sorted({n["name"] for n in interactive if n["name"]})}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Export the graph as a folder of Markdown notes that opens as an Obsidian vault with a working graph.

One note per entity: front matter (type, status, created, updated, aliases, and ``name`` when the
file name could not hold the name), the observations as a list, then each relation as a Dataview
field ``- type:: [[Target]]`` so that importing the folder gives back the same graph. Superseded
observations, ended relations and reflections follow under their own headings for reading; the
JSONL export is the format that carries them back in.
"""

from __future__ import annotations

import re
from pathlib import Path

from limbic import osfiles
from limbic.engine.graph.graph import Graph
from limbic.service.importers.common import ImportInputError
from limbic.service.importers import frontmatter, valid_marks
from limbic.service.importers.markdown import ALIAS_KIND, EXPORT_MARKER, HISTORY_MARKER, RELATIONS_HEADING

# Characters file systems (Windows the strictest) or Obsidian's links refuse in a file name.
_UNSAFE = re.compile(r'[\\/:*?"<>|#^\[\]\x00-\x1f\x7f]')
# Windows' device names, which no file may be called whatever its extension (COM0, LPT0 and the superscript
# digits count too, and the console's CONIN$ and CONOUT$).
_RESERVED = {"con", "prn", "aux", "nul", "conin$", "conout$", "clock$",
             *(f"{port}{digit}" for port in ("com", "lpt") for digit in "0123456789\u00b9\u00b2\u00b3")}
MAX_STEM = 120
MAX_PATH = 260  # Windows' limit on a whole path, counted in UTF-16 units, the terminating NUL included
MIN_STEM = 16  # a folder that leaves less room for a note's name is refused
_TAIL = len(".md.part") + len(" (99999)") + 2  # the temporary file's ending, a number that keeps names apart, ./
HISTORY_HEADING = "## History"


def _units(text: str) -> int:
    """Length as Windows counts it (UTF-16 code units: a character beyond the BMP is two)."""
    return len(text.encode("utf-16-le")) // 2


def _cut(text: str, units: int) -> str:
    """The longest start of ``text`` within ``units`` UTF-16 code units (never half a character)."""
    out, used = [], 0
    for ch in text:
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > units:
            break
        out.append(ch)
    return "".join(out)


def safe_stem(name: str, limit: int = MAX_STEM) -> str:
    """A file name (without .md) every platform and Obsidian accept, as close to the name as possible."""
    stem = _UNSAFE.sub("_", name).strip().rstrip(". ")
    stem = stem.lstrip(".") or "_"
    if stem.split(".")[0].rstrip(" ").lower() in _RESERVED:
        stem = "_" + stem
    return _cut(stem, limit).rstrip(". ") or "_"


def stem_room(folder: Path) -> int:
    """How long a note's file name may be in ``folder`` so that its path, and its temporary file's, stay under
    Windows' 260 characters (the export may be opened there, or synced to a machine that is)."""
    room = MAX_PATH - 1 - _units(str(Path(folder).absolute())) - _TAIL
    if room < MIN_STEM:
        raise ImportInputError(f"The folder {folder} is too deep for notes: their paths would pass 260 characters, "
                               "which Windows cannot open; choose a folder with a shorter path.")
    return min(MAX_STEM, room)


def file_names(names: list[str], limit: int = MAX_STEM) -> dict[str, str]:
    """A unique stem per entity name (unique ignoring case, as on macOS and Windows)."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for name in sorted(names, key=lambda n: (safe_stem(n, limit) != n, n)):  # names that fit keep their own
        base = safe_stem(name, limit)
        stem, n = base, 2
        while stem.lower() in taken:
            stem, n = f"{base} ({n})", n + 1
        taken.add(stem.lower())
        out[name] = stem
    return out


def _item(text: str) -> str:
    """A list item; the lines after the first are indented so they stay in it."""
    first, *rest = text.split("\n")
    return "\n".join([f"- {first}", *(f"  {line}" if line else "" for line in rest)])


def _link(stems: dict[str, str], name: str) -> str:
    stem = stems[name]
    return f"[[{stem}]]" if stem == name else f"[[{stem}|{name.replace('|', '/').replace(']', ')')}]]"


def export_markdown(graph: Graph, folder, progress=None, force: bool = False) -> int:
    """Write one note per entity into ``folder``; returns the count.

    The folder is new, empty or an earlier Markdown export of Limbic (whose notes are replaced, and
    those of entities no longer in the graph removed); ``force`` writes into any folder.
    """
    from limbic.service.export_guard import guard_folder, mark_folder

    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ImportInputError(f"{folder} is a file; choose a folder for the notes.")
    room = stem_room(folder)
    earlier = guard_folder(folder, "markdown", force)
    folder.mkdir(parents=True, exist_ok=True)
    names = [r[0] for r in graph.db.execute("SELECT name FROM entities ORDER BY id")]
    stems = file_names(names, room)
    written = {f"{stem}.md" for stem in stems.values()}
    mark_folder(folder, "markdown", sorted(written))
    for old in set(earlier) - written:
        if old.lower().endswith(".md") and (folder / old).is_file():
            osfiles.unlink(folder / old, missing_ok=True)  # a note this export wrote before, for an entity no longer in the graph
    outgoing: dict[int, list] = {}
    held = {t: valid_marks.periods(graph, t) for t in ("observations", "relations")}  # (valid …) suffixes
    for rel in graph.all_relations(ended=True):
        outgoing.setdefault(rel.from_id, []).append(rel)
    reflections: dict[str, list] = {}
    for refl in graph.all_reflections():
        reflections.setdefault(refl.about.split(" —", 1)[0] if refl.relation_id else refl.about, []).append(refl)
    all_aliases = graph.aliases_by_entity()
    private = {r[0] for r in graph.db.execute("SELECT id FROM entities WHERE private != 0")} \
        if "private" in {r[1] for r in graph.db.execute("PRAGMA table_info(entities)")} else set()
    n = 0
    for n, ent in enumerate(graph.iter_entities(), start=1):
        if progress and n % 50 == 0:
            progress("export", n, len(names))
        # Its aliases, then what an older import kept as observations of kind alias.
        legacy = [o.content for o in ent.observations if o.kind == ALIAS_KIND and o.current]
        aliases = list(dict.fromkeys(all_aliases.get(ent.id, []) + legacy))
        props = {
            "name": ent.name if stems[ent.name] != ent.name else None,
            "type": ent.entity_type,
            "status": ent.status,
            "created": ent.created_at,
            "updated": ent.updated_at,
            "aliases": aliases,
            "limbic": "private" if ent.id in private else None,  # read back by the import (markdown.PRIVATE_MARK)
        }
        parts = [frontmatter.dump(props) + EXPORT_MARKER + "\n"]
        current = [o for o in ent.observations if o.current and o.kind != ALIAS_KIND]
        if current:
            parts.append("\n".join(_item(o.content + valid_marks.suffix(*held["observations"].get(o.id, (None, None))))
                                   for o in current) + "\n")
        rels = outgoing.get(ent.id, [])
        active = [r for r in rels if r.active]
        if active:
            parts.append(f"{RELATIONS_HEADING}\n\n" + "\n".join(f"- {r.relation_type}:: {_link(stems, r.to_name)}"
                                                    f"{valid_marks.suffix(*held['relations'].get(r.id, (None, None)))}" for r in active) + "\n")
        history = [f"- ~~{o.content.splitlines()[0]}~~ (superseded {o.superseded_at})" for o in ent.superseded]
        history += [
            f"- ~~{r.relation_type} → {r.to_name.replace('[', '(').replace(']', ')')}~~ (ended {r.ended_at or 'at some point'})"
            for r in rels if not r.active
        ]
        history += [
            f"> {f.content.splitlines()[0]} — {f.author or 'someone'}, {f.created_at}" for f in reflections.get(ent.name, [])
        ]
        if history:
            parts.append(f"{HISTORY_MARKER}\n{HISTORY_HEADING}\n\n" + "\n".join(history) + "\n")
        tmp = folder / f".{stems[ent.name]}.md.part"
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            fh.write("\n".join(parts))
        osfiles.replace(tmp, folder / f"{stems[ent.name]}.md")
    return n

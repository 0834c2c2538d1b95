"""Import a folder of Markdown notes (an Obsidian vault included): each note an entity, its
paragraphs and list items observations, its [[wikilinks]] relations.

- name: front matter ``name`` or ``title``, else the note's first ``# heading`` when it opens the
  note, else the file name; a name two notes share falls back to the note's path.
- type: front matter ``type``, else its first tag, else its folder (``Note`` at the top).
- status, created, updated: front matter, else active and the file's modification time.
- valid_from / valid_until (front matter) and a ``(valid from … until …)`` suffix on a line say when
  the note's facts held (``valid_marks``).
- aliases (front matter) resolve links and become the entity's aliases (an older import kept them as
  observations of kind ``alias``, which the export still writes as aliases).
- ``key:: [[Target]]`` (Dataview) and link-valued properties give typed relations; any other
  link is ``links_to``. ``[[Target|label]]``, ``[[Target#heading]]``, ``[[Target^block]]``,
  ``![[Note]]`` and ``[text](Note.md)`` all point at Target; links to notes that do not exist are
  listed in the report. ``.obsidian/``, ``.trash/``, hidden folders and attachments are skipped;
  a note that is not UTF-8 text, larger than 4 MB, or a symbolic link (never followed, see
  ``vault_files``) is skipped and reported; broken front matter stops the import before anything
  is written, naming the file and line.
"""

from __future__ import annotations

import functools
import os
import re
import urllib.parse
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from limbic.engine.errors import Cancelled, ValidationError
from limbic.engine.graph.graph import TIME_FORMAT, Graph, clean_name, clean_observation, name_key
from limbic.engine.graph.graph_history import clean_stamp, clean_status
from limbic.service.importers.common import ImportInputError, ImportReport, backup_before_import, count_before, finish
from limbic.service.importers import frontmatter, valid_marks, vault_files
from limbic.service.aliases import keep_aliases

NOTE_SUFFIXES = (".md", ".markdown")
DEFAULT_RELATION = "links_to"
TOP_TYPE = "Note"
ALIAS_KIND = "alias"
# Front matter keys Limbic reads into the entity itself; any other becomes an observation "key: value".
# Limbic's Markdown export writes history (superseded observations, ended relations, reflections)
# after this line for reading; the JSONL export carries it, so an import stops here.
HISTORY_MARKER = "%% Limbic: history below, for reading; the JSONL export carries it %%"
# Written at the top of each exported note (a comment: Obsidian does not show it).
EXPORT_MARKER = "%% Limbic export: the list is the observations, Relations the relations %%"
RELATIONS_HEADING = "## Relations"
KNOWN_KEYS = {"name", "title", "type", "tags", "tag", "aliases", "alias", "status", "created", "updated", "modified",
              "valid_from", "valid_until", "limbic"}
PRIVATE_MARK = "private"  # front matter ``limbic: private``: no assistant sees the entity (docs/mcp.md)

WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n]+?)\]\]")
# [text](Note.md), [text](../Harbor%20API.md) and [text](<Harbor API.md>) (how Obsidian writes a name with spaces).
MD_LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\((?:<([^<>\n]+?\.md)(?:#[^>\n]*)?>|([^)\s]+\.md)(?:#[^)]*)?)\)")
FIELD_LINE = re.compile(r"^\s*(?:[-*+]\s+)?([A-Za-z_][\w \-]{0,60}?)::\s*(.*)$")
INLINE_FIELD = re.compile(r"[\[(]([A-Za-z_][\w \-]{0,60}?)::\s*((?:\[\[[^\[\]\n]*\]\]|[^\[\]()\n])*)[\])]")
TAG = re.compile(r"(?:^|\s)#([A-Za-z_][\w/\-]*)")
LIST_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`\n]*`")
EMBED = re.compile(r"!\[\[([^\[\]\n]+?)\]\]")
TAG_ONLY = re.compile(r"^\s*(?:#[A-Za-z_][\w/\-]*\s*)+$")  # a line of tags and nothing else


@dataclass
class Link:
    target: str  # as written, before resolving (no label, heading or block)
    relation_type: str
    valid: valid_marks.Valid | None = None  # its line's own (valid …) period


@dataclass
class Note:
    path: Path  # relative to the vault
    name: str
    entity_type: str
    status: str | None
    created: str | None
    updated: str | None
    aliases: list[str] = field(default_factory=list)
    observations: list[str] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    self_links: int = 0
    valid: dict[str, valid_marks.Valid] = field(default_factory=dict)  # observation text -> when it held
    valid_default: valid_marks.Valid | None = None  # front matter valid_from / valid_until
    private: bool = False  # front matter ``limbic: private``


@dataclass
class Vault:
    notes: list[Note] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    attachments: int = 0


def link_target(inner: str) -> str:
    """The note a wikilink's inside points at: no label, no #heading, no ^block, no .md."""
    target = inner.split("|", 1)[0]
    target = re.split(r"[#^]", target, maxsplit=1)[0].strip()
    if target.lower().endswith(".md"):
        target = target[:-3]
    return target


def _is_note_link(target: str) -> bool:
    """False for attachments (an extension that is not Markdown)."""
    suffix = os.path.splitext(target)[1].lower()
    return not suffix or suffix in NOTE_SUFFIXES or not suffix[1:].isalpha() or len(suffix) > 6


def _links_in(text: str, rtype: str) -> tuple[list[Link], int]:
    links, selfs = [], 0
    text = INLINE_CODE.sub("", text)
    for _bang, inner in WIKILINK.findall(text):
        target = link_target(inner)
        if not target:
            selfs += 1  # [[#heading]]: a place in the same note
        elif _is_note_link(target):
            links.append(Link(target, rtype))
    for bracketed, bare in MD_LINK.findall(text):
        href = bracketed or bare
        if "://" in href:
            continue
        target = urllib.parse.unquote(href)[:-3]
        links.append(Link(_relative(target), rtype))
    return links, selfs


def _relative(target: str) -> str:
    """A relative link's path without its leading ./ and ../ (the vault's notes resolve by path or file name)."""
    parts = [p for p in target.replace("\\", "/").split("/") if p not in ("", ".", "..")]
    return "/".join(parts) or target


def _blocks(body: str) -> list[str]:
    """Paragraphs and list items (each its own block, with its indented lines, nested items and code),
    fenced code kept whole; headings dropped."""
    blocks: list[str] = []
    para: list[str] = []
    item: list[str] | None = None
    item_indent = 0
    item_fence = False
    fence: list[str] | None = None

    def flush():
        nonlocal para, item, item_fence
        if item is not None:
            blocks.append("\n".join(item).strip())
            item, item_fence = None, False
        if para:
            blocks.append("\n".join(para).strip())
            para = []

    def indented(line: str) -> bool:
        return line.startswith(" " * max(2, item_indent)) or line.startswith("\t")

    def dedent(line: str) -> str:
        return line[item_indent:] if line.startswith(" " * item_indent) else line.lstrip()

    lines = body.split("\n")
    # For each line, the index of the next line with text (one pass, not a scan per blank line).
    next_text = [len(lines)] * (len(lines) + 1)
    for j in range(len(lines) - 1, -1, -1):
        next_text[j] = j + 1 if j + 1 < len(lines) and lines[j + 1].strip() else next_text[j + 1]
    for i, line in enumerate(lines):
        if fence is not None:
            fence.append(line)
            if FENCE.match(line):
                blocks.append("\n".join(fence).strip())
                fence = None
            continue
        if item is not None and (item_fence or indented(line)):
            text = dedent(line) if line.strip() else ""
            item.append(text)
            if FENCE.match(text):
                item_fence = not item_fence
            continue
        if item is not None and not line.strip():
            nxt = lines[next_text[i]] if next_text[i] < len(lines) else ""
            if indented(nxt):
                item.append("")
                continue
        if FENCE.match(line):
            flush()
            fence = [line]
            continue
        m = LIST_ITEM.match(line)
        if m:
            flush()
            item, item_indent = [m.group(2)], len(m.group(1)) + 2
            if FENCE.match(m.group(2)):
                item_fence = True
            continue
        if not line.strip() or HEADING.match(line):
            flush()
            continue
        if item is not None:
            flush()
        para.append(line)
    if fence is not None:
        blocks.append("\n".join(fence).strip())
    flush()
    return [b for b in blocks if b]


def _as_list(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    return [v.strip() for v in re.split(r"[,\s]+" if not str(value).startswith("[[") else r"\n", str(value)) if v.strip()]


def _mtime(path: Path) -> str:
    return datetime.fromtimestamp(path.stat().st_mtime, timezone.utc).strftime(TIME_FORMAT)


def read_note(root: Path, rel: Path, text: str) -> Note:
    """Parse one note; raises ImportInputError on broken front matter or an unusable name."""
    where = root / rel
    try:
        block, body, body_line = frontmatter.split(text)
        props = frontmatter.parse(block) if block is not None else {}
    except frontmatter.FrontMatterError as exc:
        raise ImportInputError(f"{where}, line {exc.line}: the front matter cannot be read ({exc.reason}).") from None
    if HISTORY_MARKER in body:
        body = body.split(HISTORY_MARKER, 1)[0]
    relations_part = None
    if EXPORT_MARKER in body:  # Limbic's own note: observations are text, relations are listed apart
        body, _, relations_part = body.replace(EXPORT_MARKER, "", 1).partition(f"\n{RELATIONS_HEADING}\n")
    tags = _as_list(props.get("tags") or props.get("tag"))
    body_tags = [] if tags else TAG.findall(INLINE_CODE.sub("", body))
    name = props.get("name") or props.get("title")
    lines = body.lstrip("\n").split("\n")
    heading = HEADING.match(lines[0]) if lines and lines[0].startswith("# ") else None
    if heading and not name:
        name = heading.group(1)
    if heading:
        body = "\n".join(lines[1:])
    folder = rel.parent.as_posix()
    etype = props.get("type") or (tags[0].lstrip("#") if tags else None) or (body_tags[0] if body_tags else None)
    etype = etype or (rel.parent.name if folder not in ("", ".") else TOP_TYPE)
    raw_status, status = props.get("status"), None
    if isinstance(raw_status, str) and raw_status.strip():
        try:
            status = clean_status(raw_status)
        except ValidationError:
            pass  # a vault's own status words stay an observation below
    try:
        name = clean_name(str(name) if name else rel.stem)
        etype = clean_name(str(etype), "type", 128)
    except ValidationError as exc:
        raise ImportInputError(f"{where}: {str(exc).rstrip('.')}.") from None
    created = clean_stamp(str(props.get("created") or "")) or _mtime(where)
    updated = clean_stamp(str(props.get("updated") or props.get("modified") or "")) or _mtime(where)
    note = Note(rel, name, etype, status, min(created, updated), updated)
    note.valid_default, kept = valid_marks.note_default(props)
    note.observations += kept  # a period that is not one stays in the note as written, as an unknown status does
    aliases = props.get("aliases") or props.get("alias")
    note.aliases = _as_list(aliases) if isinstance(aliases, list) else [a.strip() for a in str(aliases or "").split(",") if a.strip()]
    if raw_status is not None and status is None:
        note.observations.append(f"status: {raw_status}")
    marks = props.get("limbic")
    for mark in marks if isinstance(marks, list) else [] if marks is None else [marks]:
        if isinstance(mark, str) and mark.strip().casefold() == PRIVATE_MARK:
            note.private = True
        else:  # a word Limbic does not know there stays in the note as written
            note.observations.append(f"limbic: {mark}")
    for key, value in props.items():
        values = value if isinstance(value, list) else [value]
        linked = [v for v in values if isinstance(v, str) and WIKILINK.search(v)]
        if linked and key not in KNOWN_KEYS:
            for v in linked:
                links, _ = _links_in(v, key.strip())
                note.links += links
            continue
        if key in KNOWN_KEYS or value is None or value == []:
            continue
        shown = ", ".join(("true" if v else "false") if isinstance(v, bool) else str(v) for v in values)
        note.observations.append(f"{key.strip()}: {shown}")
    if relations_part is not None:
        _exported_body(note, where, body, relations_part)
        return note
    attachments: list[str] = []
    for block in _blocks(body):
        field_line = FIELD_LINE.match(block) if "\n" not in block else None
        if field_line and WIKILINK.search(field_line.group(2)):
            _field_links(note, field_line)
            continue
        for key, value in INLINE_FIELD.findall(block):
            links, _ = _links_in(value, key.strip())
            note.links += links
        if not block.lstrip().startswith(("```", "~~~")):
            stripped = INLINE_FIELD.sub("", block)
            links, selfs = _links_in(stripped, DEFAULT_RELATION)
            note.links += links
            note.self_links += selfs
        block = _without_attachments(block, attachments)
        if not block or TAG_ONLY.match(block):
            continue  # an embedded picture or a line of tags is listed once below, not kept as text
        try:
            _observe(note, block)
        except ValidationError as exc:
            raise ImportInputError(f"{where}: {str(exc).rstrip('.')}.") from None
    all_tags = list(dict.fromkeys([t.lstrip("#") for t in tags if t] + TAG.findall(INLINE_CODE.sub("", body))))
    all_tags = [t for t in all_tags if t.casefold() != etype.casefold()]  # the tag that became the type is the type
    if all_tags:
        note.observations.append("tags: " + ", ".join(f"#{t}" for t in all_tags))
    if attachments:
        note.observations.append("attachments: " + ", ".join(dict.fromkeys(attachments)))
    return note


def _without_attachments(block: str, found: list[str]) -> str:
    """The block with its embedded attachments (``![[diagram.png]]``) taken out; their names go to ``found``."""
    def take(match: re.Match) -> str:
        target = link_target(match.group(1))
        if _is_note_link(target):
            return match.group(0)  # an embedded note is a link, kept
        found.append(target)
        return ""

    return re.sub(r"(?<=\S)[ \t]{2,}(?=\S)", " ", EMBED.sub(take, block)).strip()


def _observe(note: Note, block: str) -> None:
    """One observation, without its (valid …) suffix, whose period (or the note's) is kept beside it."""
    text, valid = valid_marks.split(block)
    text = clean_observation(text)
    note.observations.append(text)
    if (valid or note.valid_default) is not None:
        note.valid[text] = valid or note.valid_default


def _field_links(note: Note, field_line: re.Match) -> None:
    value, valid = valid_marks.split(field_line.group(2))
    links, _ = _links_in(value, field_line.group(1).strip())
    for link in links:
        link.valid = valid
    note.links += links


def _exported_body(note: Note, where: Path, body: str, relations_part: str) -> None:
    """A note Limbic exported: each list item before Relations is an observation as written (its links
    are text), each ``type:: [[Target]]`` after it a relation: importing it back changes nothing."""
    for block in _blocks(body):
        try:
            _observe(note, block)
        except ValidationError as exc:
            raise ImportInputError(f"{where}: {str(exc).rstrip('.')}.") from None
    for block in _blocks(relations_part):
        field_line = FIELD_LINE.match(block) if "\n" not in block else None
        if field_line and WIKILINK.search(field_line.group(2)):
            _field_links(note, field_line)
            continue
        try:  # text written there by hand is kept, as in any note
            _observe(note, block)
        except ValidationError as exc:
            raise ImportInputError(f"{where}: {str(exc).rstrip('.')}.") from None


def read_vault(root: Path, progress=None, cancelled=None) -> Vault:
    """Read and validate every note; raises ImportInputError (one sentence) before anything is written."""
    root = Path(root)
    if not root.is_dir():
        raise ImportInputError(f"{root} is not a folder.")
    vault = Vault()
    files, vault.skipped = vault_files.walk(root)  # no symbolic link is followed; each one is reported
    root_real = os.path.realpath(root)
    for i, path in enumerate(files):
        if cancelled and i % 20 == 0 and cancelled():
            raise Cancelled("The import was cancelled; nothing was changed.")
        if progress and i % 20 == 0:
            progress("read", i, len(files))
        rel = path.relative_to(root)
        if path.suffix.lower() not in NOTE_SUFFIXES:
            vault.attachments += 1
            continue
        try:
            data = vault_files.read_regular_file(path, root_real=root_real)
        except vault_files.NoteSkipped as why:
            vault.skipped.append(f"{rel}: {why}")
            continue
        if b"\x00" in data:
            vault.skipped.append(f"{rel}: binary, not text")
            continue
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            vault.skipped.append(f"{rel}: not UTF-8 text")
            continue
        note = read_note(root, rel, text.replace("\r\n", "\n").replace("\r", "\n"))
        vault.notes.append(note)
    if progress:
        progress("read", len(files), len(files))
    _unique_names(vault)
    return vault


def _unique_names(vault: Vault) -> None:
    """Two notes with one name: each keeps its path (without .md) instead."""
    seen: dict[str, list[Note]] = {}
    for note in vault.notes:
        seen.setdefault(note.name, []).append(note)
    for name, notes in seen.items():
        if len(notes) > 1:
            for note in notes:
                note.name = clean_name(note.path.with_suffix("").as_posix())


def resolver(vault: Vault, graph: Graph | None = None):
    """A function from a link target to an entity name, or None: by path, file name, name or alias, ignoring case."""
    keys: dict[str, str] = {}
    for note in vault.notes:
        for key in (*note.aliases, note.name, note.path.stem, note.path.with_suffix("").as_posix()):
            keys.setdefault(key.lower(), note.name)
    # Path, stem and name win over aliases: set them last, unconditionally.
    for note in vault.notes:
        for key in (note.path.stem, note.name, note.path.with_suffix("").as_posix()):
            keys[key.lower()] = note.name

    def resolve(target: str) -> str | None:
        t = target.strip().lower().lstrip("/")
        found = keys.get(t) or keys.get(t.rsplit("/", 1)[-1])
        if found is None and graph is not None:
            for candidate in dict.fromkeys((target.strip(), target.strip().rsplit("/", 1)[-1])):
                if graph.entity_id(candidate) is not None or graph.alias_owner(candidate) is not None:
                    return candidate  # a link to an entity already in the graph, by name, alias or file name
        return found

    return resolve


def _same_case_types(graph: Graph, vault: Vault) -> None:
    """A type differing from one the graph (or an earlier note) has only in case is that type: #person is Person."""
    spelling = {name_key(t): t for t in reversed(graph.entity_types())}
    for note in vault.notes:
        note.entity_type = spelling.setdefault(name_key(note.entity_type), note.entity_type)


def import_vault(graph: Graph, root, progress=None, cancelled=None, embed: bool = True) -> ImportReport:
    """Import a folder of notes: read and validate all, back up, one transaction, then embed."""
    root = Path(root)
    vault = read_vault(root, progress, cancelled)
    report = ImportReport("markdown", str(root), entities_read=len(vault.notes), skipped=list(vault.skipped))
    if vault.attachments:
        one = vault.attachments == 1
        report.notes.append(f"{vault.attachments} {'attachment or other file' if one else 'attachments and other files'} "
                            "left aside (embeds of them are listed on their notes)")
    _same_case_types(graph, vault)
    resolve = functools.lru_cache(maxsize=None)(resolver(vault, graph))  # a note may link to one target 100,000 times
    report.notes += backup_before_import(graph)
    before = count_before(graph)
    total = len(vault.notes) * 2
    with graph.write(embed=False):
        ids: dict[str, int] = {}
        for i, note in enumerate(vault.notes):
            if i % 20 == 0:
                if cancelled and cancelled():
                    raise Cancelled("The import was cancelled; nothing was changed.")
                if progress:
                    progress("graph", i, total)
            ids[note.name], _ = graph.merge_entity(note.name, note.entity_type, note.status, note.created, note.updated)
            graph.merge_observations(ids[note.name], [(text, None) for text in note.observations], note.created, cancelled)
            valid_marks.store_observations(graph, ids[note.name], note.valid)
            if note.private:  # an import marks private, never unmarks: a note without the key reveals nothing
                graph.set_private(ids[note.name], True)
        for note in vault.notes:  # once every name is in: an alias must not be another note's name
            report.notes += keep_aliases(graph, ids[note.name], note.aliases, str(note.path))
        for i, note in enumerate(vault.notes):
            if progress and i % 20 == 0:
                progress("graph", len(vault.notes) + i, total)
            for link in note.links:
                target = resolve(link.target)
                if target is None:
                    report.missing_links.setdefault(link.target, []).append(note.name)
                    continue
                target_id = ids.get(target) or graph.resolve(target)
                if target_id == ids[note.name] and link.relation_type == DEFAULT_RELATION:
                    continue  # a note linking to itself by name
                try:
                    rel_id, _ = graph.merge_relation(ids[note.name], target_id, link.relation_type, created_at=note.created)
                except ValidationError:
                    rel_id, _ = graph.merge_relation(ids[note.name], target_id, DEFAULT_RELATION, created_at=note.created)
                valid_marks.store(graph, "relations", rel_id, link.valid or note.valid_default)
    if progress:
        progress("graph", total, total)
    return finish(graph, report, before, progress, cancelled, embed)

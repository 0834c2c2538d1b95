"""The activity log for front ends: who changed what, review marks, what assistants read, retention."""

from __future__ import annotations

import json
import logging
import unicodedata
from dataclasses import dataclass, field

from limbic.engine.errors import ValidationError
from limbic.engine.graph import activity_control, activity_log, change_words, revert
from limbic.engine.store import changes as _changes
from limbic.engine.graph.activity_log import MAX_KEEP_DAYS, Change, ReadCount, Session
from limbic.engine.graph.revert import INTO_EXISTING, SKIP, Conflict, Plan, RevertConflict
from limbic.engine.graph.revert_words import taking_lines
from limbic.engine.graph.graph import Graph, now_utc

logger = logging.getLogger(__name__)

__all__ = [
    "INTO_EXISTING", "MAX_KEEP_DAYS", "SKIP", "Change", "Conflict", "Plan", "ReadCount", "RevertConflict", "Session", "changes", "entity_history", "mark_reviewed", "reads_of", "record_reads",
    "PanelData", "panel_data", "session_changes", "sessions", "set_keep_days", "set_origin", "unreviewed_count",
]


def set_origin(graph: Graph, origin: str, client: str = "", client_version: str = "") -> None:
    """From now on this connection writes as ``origin`` (app, cli, import, assistant) for ``client``."""
    graph.db.activity.set_origin(origin, client, client_version)


def change_in_words(change: Change, words) -> str:
    """A logged change in one line in the reader's language (``words``: template → translated template)."""
    return change_words.summarize(change, tr=words, names=change.names)


def item_in_words(change: Change, item, words) -> str:
    """One item of a logged change in the reader's language."""
    return change_words.describe_item(item, change.names, words)


def sessions(graph: Graph, **filters) -> list[Session]:
    """Sessions, newest first, with their matching changes (filters: ``activity_log.list_sessions``)."""
    return activity_log.list_sessions(graph.db, **filters)


def changes(graph: Graph, change_ids) -> list[Change]:
    """These changes with their items, in order."""
    return activity_log.load_changes(graph.db, change_ids)


def entity_history(graph: Graph, entity_id: int, limit: int = 50) -> list[Change]:
    """Who changed this entity and when, oldest first."""
    return activity_log.entity_history(graph.db, entity_id, limit)


def unreviewed_count(graph: Graph) -> int:
    """Assistant changes not yet reviewed."""
    return activity_log.unreviewed_count(graph.db)


def mark_reviewed(graph: Graph, change_ids=None, session: int | None = None, everything: bool = False) -> int:
    """Mark changes reviewed: these, a session's, or all of them."""
    return activity_log.mark_reviewed(graph.db, change_ids, session, everything)


def record_reads(graph: Graph, tool: str, entity_ids) -> None:
    """Note which entities an assistant was given (``None`` in the ids: the whole graph)."""
    activity_log.record_reads(graph.db, tool, entity_ids)


def reads_of(graph: Graph, entity_id: int, since: str | None = None) -> list[ReadCount]:
    """How often each assistant read this entity since ``since``."""
    return activity_log.reads_of(graph.db, entity_id, since)


def set_keep_days(graph: Graph, days: int) -> None:
    """Set how many days the activity log keeps changes (unreviewed assistant changes stay longer)."""
    activity_log.set_keep_days(graph.db, days)


# Characters that show as nothing but are not format characters (Unicode's default-ignorable letters and marks).
_IGNORABLE = frozenset([0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, *range(0x180B, 0x1810),
                        *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
CLIENT_NAME_CHARS = 200  # a client's name is cut here: it is shown in the activity log, not stored as data
NUL_IN_CLIENT_NAME = ("The client's name holds a NUL character (U+0000), which Limbic refuses everywhere; "
                      "send the name without it.")


def client_name(raw: object) -> str:
    """A client's name as it is logged, shown and compared with a pause: NFKC, no invisible characters, spaces trimmed.

    "alpha ", " alpha", "alpha\u200b" and full-width "ａｌｐｈａ" are all "alpha": a pause of one holds the others.
    A NUL is refused (ValidationError), as everywhere in Limbic.
    """
    text = "" if raw is None else str(raw)
    if "\x00" in text:
        raise ValidationError(NUL_IN_CLIENT_NAME)
    text = unicodedata.normalize("NFKC", text)
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or (unicodedata.category(ch) not in ("Cf", "Cc", "Cs") and ord(ch) not in _IGNORABLE))
    return " ".join(kept.split())[:CLIENT_NAME_CHARS]


def _same_client(a: str, b: str) -> bool:
    try:
        return client_name(a).casefold() == client_name(b).casefold()
    except ValidationError:  # a stored name with a NUL (kept from before names were checked) matches nothing
        return False


def write_refusal(graph: Graph, client: str) -> str | None:
    """Why an assistant named ``client`` may not write now (paused, or all assistants stopped), or None.

    A refusal is counted in its session (``refused_writes``): the person sees what an assistant tried.
    """
    if not activity_control.assistants_may_write(graph.db):
        _count_refusal(graph, "assistants may not write")
        return activity_control.write_refusal(graph.db, "")
    name = client_name(client)
    if name and any(_same_client(name, paused) for paused in activity_control.paused_clients(graph.db)):
        _count_refusal(graph, "paused")
        return activity_control.write_refusal(graph.db, next(
            p for p in activity_control.paused_clients(graph.db) if _same_client(name, p)))
    return None


REFUSALS_KEY = "activity_refused_writes"  # JSON {"s12" or "c:alpha": [count, last time, why, last sentence]}
REFUSALS_KEPT = 200  # sessions and clients whose refusals are kept (the newest): one small meta value
SAID_KEPT = 400  # characters of the last sentence a refused assistant was given


@dataclass(frozen=True)
class Refused:
    """Writes refused: how many, the last one's time, why (paused, all assistants stopped, out of scope), and
    the sentence the assistant was given the last time, where one was kept."""

    count: int
    last: str
    why: str
    said: str = ""


def _refusal_table(graph: Graph) -> dict[str, Refused]:
    try:
        raw = json.loads(graph.db.get_meta(REFUSALS_KEY) or "{}")
        return {str(k): Refused(int(v[0]), str(v[1]), str(v[2]), str(v[3]) if len(v) > 3 else "") for k, v in raw.items()}
    except (ValueError, TypeError, IndexError, AttributeError):
        return {}  # an unreadable value counts none


def refused_writes(graph: Graph) -> tuple[dict[int, Refused], dict[str, Refused]]:
    """Refused writes: by session id, and by client name for a connection that had no session yet."""
    table = _refusal_table(graph)
    sessions = {int(k[1:]): v for k, v in table.items() if k.startswith("s") and k[1:].isdigit()}
    return sessions, {k[2:]: v for k, v in table.items() if k.startswith("c:")}


def note_refusal(graph: Graph, why: str, said: str = "") -> None:
    """Count a write refused for ``why`` in the connection's session, as pauses are (best effort); ``said``:
    the sentence the assistant was given, kept for the person (the last one of each session)."""
    _count_refusal(graph, why, said)


def _count_refusal(graph: Graph, why: str, said: str = "") -> None:
    # Best effort, as a read's note: a busy or read-only file refuses the write without counting it. A
    # connection without a session is counted under its client's name: a refusal opens no session of its
    # own (the connection's next write, perhaps under another name, would join it).
    db = graph.db
    if db.readonly:
        return
    try:
        with db.transaction(retry=False):
            now = now_utc()
            session = db.activity.session_id
            key = f"s{session}" if session is not None else f"c:{db.activity.client or db.activity.origin}"
            table = _refusal_table(graph)
            table[key] = Refused((table[key].count if key in table else 0) + 1, now, why, said[:SAID_KEPT])
            kept = sorted(table, key=lambda k: table[k].last)[-REFUSALS_KEPT:]
            db.set_meta(REFUSALS_KEY, json.dumps({k: [table[k].count, table[k].last, table[k].why, table[k].said]
                                                  for k in kept}))
    except Exception as exc:  # noqa: BLE001 - the refusal itself must reach the assistant whatever happens here
        logger.info("refused write not counted: %s", exc)


def set_paused(graph: Graph, client: str, paused: bool) -> None:
    """Pause or resume one assistant's writes, by its name as ``client_name`` gives it."""
    name = client_name(client)
    for stored in activity_control.paused_clients(graph.db):
        if stored != name and _same_client(stored, name):  # kept under another spelling: that one goes
            activity_control.set_paused(graph.db, stored, False)
    activity_control.set_paused(graph.db, name, paused)


def paused_clients(graph: Graph) -> list[str]:
    return activity_control.paused_clients(graph.db)


def assistants_may_write(graph: Graph) -> bool:
    return activity_control.assistants_may_write(graph.db)


def set_assistants_may_write(graph: Graph, allowed: bool) -> None:
    """The global switch for every assistant's writes."""
    activity_control.set_assistants_may_write(graph.db, allowed)


def act_as(graph: Graph, key: object, origin: str, client: str = "", client_version: str = "") -> None:
    """Commits from now on belong to connection ``key`` (one session per connection) of this client."""
    graph.db.activity.act_as(key, origin, client, client_version)


def kept_past_retention(graph: Graph) -> int:
    """Unreviewed assistant changes older than the retention (kept until reviewed)."""
    return activity_log.kept_past_retention(graph.db)


def mark_reviewed_ref(graph: Graph, ref: str) -> int:
    """Mark reviewed what ``ref`` names: a change (123), a session (s12) or ``all``."""
    if str(ref).strip().lower() == "all":
        return activity_log.mark_reviewed(graph.db, everything=True)
    return activity_log.mark_reviewed(graph.db, revert.resolve_ref(graph, ref))


def plan_revert(graph: Graph, ref: str | list[int]) -> revert.Plan:
    """What taking back a change or session would do and what blocks it (nothing is changed)."""
    ids = ref if isinstance(ref, list) else revert.resolve_ref(graph, ref)
    return revert.plan(graph, ids)


def taking_back(plan: revert.Plan) -> list[str]:
    """What taking back does to the pieces nobody changed since, one line each, except that an entity it
    deletes is one line with its pieces counted: “deleted “X” (with its 2 observations and 1 relation)”."""
    return taking_lines([p for p in plan.pieces if not p.conflict])


def taken_count(plan: revert.Plan) -> int:
    """How much an applied revert took back, counted as its preview listed it (an entity deleted with its
    observations is one): the status bar said 9 pieces where the preview had said 4."""
    return len(taking_lines(plan.pieces))


def preview_lines(plan: revert.Plan) -> list[str]:
    """The plan in the words of the window's revert preview (``taking_back``), then each piece another
    writer changed since, marked "[conflict]": what `limbic revert --dry-run` prints."""
    return taking_back(plan) + ["[conflict] " + (p.undo or p.item.summary) for p in plan.pieces if p.conflict]


def revert_changes(graph: Graph, ref: str | list[int], choice: str | None = None) -> revert.Plan:
    """Take back a change or session; RevertConflict (nothing changed) unless ``choice`` (skip, into_existing).

    What was taken back counts as reviewed: the person looked at it and decided, so the badge and the
    session's row stop asking for a review of it.
    """
    ids = ref if isinstance(ref, list) else revert.resolve_ref(graph, ref)
    done = revert.apply(graph, ids, choice)
    if done.change_id is not None or done.already:
        activity_log.mark_reviewed(graph.db, ids)
    return done


@dataclass
class PanelData:
    """What the activity panel shows in one read: sessions (newest first) and the controls' state."""

    sessions: list[Session]
    unreviewed: int
    clients: list[str]
    paused: list[str]
    may_write: bool
    kept_past_retention: int
    keep_days: int
    refused: dict[int, Refused] = field(default_factory=dict)  # writes refused, by session id
    refused_clients: dict[str, Refused] = field(default_factory=dict)  # refused before their session began


def _filters(graph: Graph, filters: dict | None) -> dict:
    filters = dict(filters or {})
    filters["with_readers"] = bool(filters.pop("reads", False))  # sessions that only read: listed when asked
    entity = filters.pop("entity", None)
    if entity:
        found = graph.entity_id(entity) if isinstance(entity, str) else entity
        filters["entity_id"] = found if found is not None else -1
    return filters


PANEL_SESSIONS = 40  # sessions listed at once
PANEL_CHANGES = 150  # newest changes read per session
PANEL_BUDGET = 300  # changes read in all when the panel opens; other sessions are read when opened


def panel_data(graph: Graph, filters: dict | None = None) -> PanelData:
    """Sessions with their newest changes for the panel (bounded, so a huge log opens as fast as a small one)."""
    db = graph.db
    chosen = _filters(graph, filters)
    listed = activity_log.list_sessions(db, limit=PANEL_SESSIONS, max_changes=PANEL_CHANGES, budget=PANEL_BUDGET,
                                        **chosen)
    refused, refused_clients = refused_writes(graph)
    return PanelData(
        _still_taken_back(graph, _with_refusals(graph, listed, refused, chosen)),
        activity_log.unreviewed_count(db),
        activity_log.client_names(db),
        activity_control.paused_clients(db),
        activity_control.assistants_may_write(db),
        activity_log.kept_past_retention(db),
        _changes.keep_days(db),
        refused,
        refused_clients,
    )


def _still_taken_back(graph: Graph, sessions: list[Session]) -> list[Session]:
    """A change whose revert was itself taken back (Edit → Undo of the revert) is live again: not marked taken back."""
    reverted_by: dict[int, int | None] = {}
    todo = {c.reverted_by for s in sessions for c in s.changes if c.reverted_by}
    while todo:  # follow each chain of reverts of reverts (undo, redo, undo…)
        ids = sorted(todo)
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            found = dict(graph.db.execute(f"SELECT id, reverted_by FROM change_log WHERE id IN "
                                          f"({','.join('?' * len(chunk))})", chunk).fetchall())
            reverted_by.update({i: found.get(i) for i in chunk})
        todo = {v for v in reverted_by.values() if v and v not in reverted_by}

    def live_revert(change_id: int) -> bool:
        depth, at = 0, change_id
        while reverted_by.get(at) and depth < 1000:
            at, depth = reverted_by[at], depth + 1
        return depth % 2 == 0  # taken back an even number of times: the revert holds

    for s in sessions:
        for c in s.changes:
            if c.reverted_by and not live_revert(c.reverted_by):
                c.reverted_by = None
    return sessions


def _with_refusals(graph: Graph, listed: list[Session], refused: dict[int, Refused], chosen: dict) -> list[Session]:
    """The listed sessions and those whose only activity was refused writes (unless the filters are about changes)."""
    if any(chosen.get(k) for k in ("unreviewed", "kind", "since")) or chosen.get("entity_id") is not None:
        return listed
    have = {s.id for s in listed}
    wanted = [i for i in refused if i not in have]
    if not wanted:
        return listed
    marks = ",".join("?" * len(wanted))
    rows = graph.db.execute(f"SELECT id, origin, client, client_version, started FROM activity_session "
                            f"WHERE id IN ({marks})", wanted).fetchall()
    client = (chosen.get("client") or "").casefold()
    extra = [Session(*r) for r in rows if not client or (r[2] or "").casefold() == client]
    return sorted(listed + extra, key=lambda s: s.id, reverse=True)[:PANEL_SESSIONS]


def session_changes(graph: Graph, session_id: int, filters: dict | None = None) -> Session | None:
    """One session with its newest matching changes (the panel reads a session when it is opened)."""
    found = activity_log.list_sessions(graph.db, limit=1, max_changes=PANEL_CHANGES, session=session_id,
                                       **_filters(graph, filters))
    return _still_taken_back(graph, found)[0] if found else None

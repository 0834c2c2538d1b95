"""An entity's life for the editor, the entity as it was at one of its moments, its dates in the
world, and what changed in the graph since a date or since the graph was last opened."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone

from limbic import localtime
from limbic.engine.errors import NotFoundError, ValidationError
from limbic.engine.graph.graph import Graph
from limbic.engine.history import diff as _diff, moments, timeline, valid
from limbic.engine.store import values
from limbic.engine.text import moments_ago
from limbic.service import history, undo
from limbic.service.filters import day_bound

MAX_CHANGED = 1000  # entities listed by "what changed since"; more says so

_ORIGINS = {"app": "You", "cli": "The command line", "import": "An import", "assistant": "An assistant"}


def who_words(who: str) -> str:
    """The writer of a recorded version in words: you, an assistant's name, ``sync:<device>``."""
    if not who:
        return "Someone"
    if who.startswith("sync:"):
        return "sync:" + who[5:].split(":")[0]
    parts = who.split(":")
    if parts[0] == "assistant" and len(parts) > 1:
        return parts[1]  # the client's name ("Claude")
    if parts[0] == "import" and len(parts) > 2:
        return f"An import of {parts[1]}"  # the file's name (the last part is the tool)
    return _ORIGINS.get(parts[0], parts[0])


@dataclass(frozen=True)
class TimelineEvent:
    """One line of an entity's timeline: when, who, what in a sentence, and the text it is about."""

    at: str  # stored time (UTC)
    who: str  # in words
    sentence: str  # "Claude added an observation"
    detail: str  # the observation's text, the relation, the alias, the names of a rename
    kind: str
    what: str

    @property
    def view_at(self) -> str:
        """The moment whose entity to show for this event: a deletion shows the entity just before it."""
        if self.what == "deleted" and self.kind == "entity":
            moment = datetime.strptime(self.at, values.TIME_FORMAT) - timedelta(seconds=1)
            return moment.strftime(values.TIME_FORMAT)
        return self.at


_DID = {
    ("entity", "created"): "created it", ("entity", "renamed"): "renamed it",
    ("entity", "retyped"): "changed its type", ("entity", "status"): "set its status",
    ("entity", "deleted"): "deleted it",
    ("observation", "added"): "added an observation", ("observation", "edited"): "edited an observation",
    ("observation", "superseded"): "superseded an observation",
    ("observation", "removed"): "removed an observation",
    ("observation", "dated"): "said when an observation held",
    ("relation", "started"): "started a relation", ("relation", "ended"): "ended a relation",
    ("relation", "restarted"): "started a relation again", ("relation", "removed"): "removed a relation",
    ("relation", "dated"): "said when a relation held",
    ("alias", "added"): "added an alias", ("alias", "removed"): "removed an alias",
}


def dates_words(valid_from: str | None, valid_until: str | None) -> str:
    """“since 2024-03-01 · until 2025-01-31” (either side may be missing; "" when neither is set)."""
    parts = []
    if valid_from:
        parts.append(f"since {valid_from[:16]}")
    if valid_until:
        parts.append(f"until {valid_until[:16]}")
    return " · ".join(parts)


def _event(e: timeline.Event) -> TimelineEvent:
    who = who_words(e.who)
    did = _DID.get((e.kind, e.what), f"{e.what} {e.kind}")
    detail = e.text
    if e.what in ("renamed", "retyped", "status"):
        detail = f"{e.before} → {e.text}"
    elif e.what == "edited":
        detail = f"“{e.before}” → “{e.text}”"
    elif e.what == "dated":
        now = dates_words(*(e.after.split(" · ") + [""])[:2]) if e.after.strip(" ·") else "dates cleared"
        detail = f"“{e.text}” ({now})" if e.kind == "observation" else f"{e.text} ({now})"
    return TimelineEvent(e.at, who, f"{who} {did}", detail, e.kind, e.what)


def entity_timeline(graph: Graph, entity_id: int) -> list[TimelineEvent]:
    """The entity's life as recorded, newest first (empty when the file keeps no history)."""
    return [_event(e) for e in reversed(timeline.entity_events(graph.db, entity_id))]


def entity_then(graph: Graph, entity_id: int, at: str) -> dict:
    """The entity as it was recorded at ``at`` (a stored time), in the shape ``limbic show --as-of`` prints."""
    page = timeline.entity_at(graph.db, entity_id, at)
    if page is None:
        raise NotFoundError(f"The entity did not exist yet on {at} (UTC).")
    return page


# -- valid time in the editor ---------------------------------------------------------------------


@dataclass
class Dates:
    """When the open entity's observations and relations held, as words beside each of them."""

    observations: dict[int, str] = field(default_factory=dict)  # observation id → "since … · until …"
    outgoing: dict[tuple[str, str], str] = field(default_factory=dict)  # (type, target name)
    incoming: dict[tuple[str, str], str] = field(default_factory=dict)  # (source name, type)
    raw: dict[tuple, tuple[str | None, str | None]] = field(default_factory=dict)  # the same keys, stored values


def entity_dates(graph: Graph, entity_id: int) -> Dates:
    """The dates set on the entity's current observations and relations (none on a file without valid time)."""
    out = Dates()
    db = graph.db
    if "valid_from" not in {r[1] for r in db.execute("PRAGMA table_info(observations)")}:
        return out
    for obs_id, start, until in db.execute(
            "SELECT id, valid_from, valid_until FROM observations WHERE entity_id = ? "
            "AND (valid_from IS NOT NULL OR valid_until IS NOT NULL)", (entity_id,)):
        out.observations[obs_id] = dates_words(start, until)
        out.raw[("observation", obs_id)] = (start, until)
    for a, b, rtype, start, until in db.execute(
            "SELECT f.name, t.name, r.relation_type, r.valid_from, r.valid_until FROM relations r "
            "JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity "
            "WHERE (r.from_entity = ? OR r.to_entity = ?) AND (r.valid_from IS NOT NULL OR r.valid_until IS NOT NULL)",
            (entity_id, entity_id)):
        words = dates_words(start, until)
        own = graph.db.scalar("SELECT name FROM entities WHERE id = ?", (entity_id,))
        if a == own:
            out.outgoing[(rtype, b)] = words
            out.raw[("out", rtype, b)] = (start, until)
        if b == own:
            out.incoming[(a, rtype)] = words
            out.raw[("in", a, rtype)] = (start, until)
    return out


def checked_dates(valid_from: str, valid_until: str) -> tuple[str | None, str | None]:
    """Both bounds as they would be stored, or one sentence saying what is wrong with them."""
    return valid.checked_bounds(valid_from, valid_until)


def set_dates(graph: Graph, entity_id: int, valid_from: str, valid_until: str, obs_id: int | None = None,
              relation: tuple[str, str, str] | None = None) -> undo.RevertStep:
    """Say when an observation (by id) or a relation (source, target, type) held; undoable like an edit."""
    start, until = checked_dates(valid_from, valid_until)
    with graph.write():
        change_id = undo.pending_change(graph)
        history.set_validity(graph, obs_id=obs_id, relation=relation, valid_from=start, valid_until=until)
    what = "an observation's dates" if obs_id is not None else "a relation's dates"
    return undo.RevertStep(label=what, entity_id=entity_id, live=undo.recorded(graph, change_id))


# -- what changed since ---------------------------------------------------------------------------


@dataclass
class ChangedSince:
    """What changed in the graph from ``since`` until now, per entity (``limbic diff``'s data)."""

    since: str  # stored time (UTC) the comparison starts at
    changes: list[dict]  # {"entity", "what", "details"} per entity, by name
    note: str = ""  # said above the list: the history began later
    total: int = 0  # how many entities changed; ``changes`` lists the first ``MAX_CHANGED`` by name


def _local_midnight(day: date) -> str:
    """The start of a day on this computer's clock, as a stored (UTC) time."""
    return localtime.local_to_utc(datetime(day.year, day.month, day.day)).strftime(values.TIME_FORMAT)


def since_moment(text: str, now: datetime | None = None) -> str:
    """A typed date, date and time (UTC) or time expression (“last week”, “en marzo”) as the stored time it starts at."""
    raw = text.strip()
    if not raw:
        raise ValidationError("Give a date (2026-03-01), a time like “last week”, or choose the last opening.")
    if len(raw) > 10 and raw[:4].isdigit():  # a date and a time: as written, in UTC
        return moments.parse_moment(raw)
    back = moments_ago.ago(raw)
    if back is not None:  # "10 minutes ago", "hace una hora": that moment, not the start of its day
        moment = (now or datetime.now(timezone.utc)).astimezone(timezone.utc) - back
        return moment.strftime(values.TIME_FORMAT)
    day = day_bound(raw, "from", "“since”", now)
    if not day:
        raise ValidationError(f"“{values.shown(raw, 40)}” has no first day to start from; give a date.")
    return _local_midnight(date.fromisoformat(day))


def changed_since(graph: Graph, since: str, until: str | None = None) -> ChangedSince:
    """What was added, changed, ended and deleted from ``since`` (a stored time) until ``until`` (now)."""
    end = until or values.now_utc()
    if since > end:
        raise ValidationError(f"{since[:16]} is in the future: nothing has changed since then yet.")
    start = moments.history_start(graph.db)
    if start is None:
        raise ValidationError(f"{graph.db.path.name} keeps no history of its changes yet: open it once with this "
                              "version of Limbic to upgrade it.")
    note = ""
    if since < start:  # what the history holds from its start is listed, and the start is said
        note = f"The graph's history starts on {start[:16]} (UTC): changes before then are not known."
    changes = [c.to_json() for c in _diff.diff(graph.db, since, end)]
    return ChangedSince(since, changes[:MAX_CHANGED], note, len(changes))


def changes_since(graph: Graph, typed: str | None, last_opened: str | None) -> ChangedSince:
    """What changed since a typed date or time (``typed``), or since ``last_opened`` when ``typed`` is None."""
    if typed is None:
        if not last_opened:
            raise ValidationError("This graph was not opened here before: give a date, such as “last week”.")
        return changed_since(graph, last_opened)
    return changed_since(graph, since_moment(typed))

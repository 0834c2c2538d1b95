"""Applying the other devices' segments: the changes met in one exchange, one at a time, in clock order.

Each device's segments apply in sequence order. Where several devices' segments meet in one exchange, their
changes interleave by the clock order (stamp, then device, then sequence) as one machine would have made them,
not a segment after another: a segment spans many stamps, so no order of whole segments is the clock order.
A stamp comes after every stamp its device had seen, so a change never comes before one it builds on.

Segments are still applied wholly or not at all, each together with the record of its sequence
(``sync_applied``): the changes are applied in *groups*, the shortest stretches of the clock order that end
where every segment begun in them has ended. A group is one write transaction; within it each device's run of
changes is a change of its own in the activity log, under that device's name, as where segments applied one by
one. A group whose apply fails is rolled back whole; the segment whose change failed is set aside, and the
others apply again in clock order without it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from limbic.engine.errors import Cancelled, DatabaseError, ValidationError
from limbic.engine.store import changes
from limbic.engine.sync import folder as files, reading, rebase, state
from limbic.engine.sync.apply import Applier

if TYPE_CHECKING:
    from limbic.engine.graph.graph import Graph

logger = logging.getLogger(__name__)

DELETE_SHARE = 0.30  # a segment deleting more than this share of the graph waits for confirmation
DELETE_MAX = 500  # or more than this many entities
DELETE_FLOOR = 10  # the share is not asked about below this many deletions (a small graph's ordinary tidying)

# Changes one record of a group holds: taking its rows (a changeset) holds the engine thread, and with it the
# window's, for about 10 ms a record, where a whole segment's 2,000 changes held it for 70-100 ms.
CHUNK = 250

# Called inside a segment's transaction after its changes and before its sequence is recorded;
# tests use it to stop the apply there and show that nothing of the segment stays.
between_apply_and_cursor: Callable[[str, int], None] | None = None


class _Failed(Exception):
    """A change of ``seg`` could not be applied (the group rolled back): ``cause`` says why."""

    def __init__(self, seg: files.Segment, cause: Exception) -> None:
        super().__init__(str(cause))
        self.seg, self.cause = seg, cause


@dataclass
class _Step:
    """One change at its place in the clock order (``last``: the last change of its segment)."""

    seg: files.Segment
    change: dict | None  # None: a segment without changes (it is only recorded)
    last: bool
    key: tuple = ()  # its place: (stamp, device, sequence, index)
    again: bool = False  # applied before, taken back to make room for a late change (rebase.py)

    def kept(self) -> list:
        return [list(self.key), self.seg.device, self.seg.seq, _name(self.seg), str(self.seg.header.get("at") or ""),
                self.change, self.last]


def apply_queues(graph: Graph, me: str, my_name: str, queues: dict[str, list[files.Segment]],
                 found: dict[str, files.DeviceFiles], result, confirm: bool = False,
                 progress: Callable[[int, int], None] | None = None,
                 cancelled: Callable[[], bool] | None = None) -> None:
    """Apply what can apply of each device's queue of segments (sequence order, dependencies met), in clock order;
    ``result`` (an ``Exchange``) gathers what was applied, set aside and left waiting."""
    db = graph.db
    total = sum(len(q) for q in queues.values())
    plan: list[list[_Step]] = []
    while True:
        if not plan:  # made again only where a segment was held or set aside (the others' order stays)
            plan = _plan(queues, state.applied(db), me)
            if not plan:
                break
        group = plan.pop(0)
        if cancelled is not None and cancelled():
            raise Cancelled("Sync was stopped; what was applied so far stays, the rest follows next time.")
        segments = _segments(group)
        held = [seg for seg in segments if not confirm and _too_many_deletions(graph, seg, result)]
        if held:
            for seg in held:
                queues[seg.device].clear()
            plan = []
            continue
        try:
            _apply_in_place(graph, me, my_name, group, result)
        except _Failed as failed:
            # The group rolled back whole: the segment whose change could not apply is set aside, and the others
            # apply again in clock order without it (its device's later segments wait behind it).
            seg, exc = failed.seg, failed.cause
            logger.warning("segment %s set aside: %r", seg.path, exc, exc_info=exc)
            why = str(exc) if isinstance(exc, ValidationError) else "its changes cannot be applied to this graph"
            reading.set_aside(result, found[seg.device], seg.device, seg.path, why)
            queues[seg.device].clear()
            plan = []
            continue
        for seg in segments:
            queues[seg.device].pop(0)
        if progress is not None:
            progress(result.received_segments, total)
    for dev, queue in queues.items():
        if queue:
            result.waiting.append(f"{reading.label(found[dev], dev)}: segment {queue[0].seq} waits for another device's.")


def _too_many_deletions(graph: Graph, seg: files.Segment, result) -> bool:
    """The fail-safe: a segment deleting a large share of this graph waits for the person (its sentence noted)."""
    gids = [i["gid"] for c in seg.changes for i in c.get("items", []) if i.get("k") == "entity" and i.get("op") == "remove"]
    doomed = sum(1 for g in gids if state.local_id(graph.db, "entity", g) is not None)
    entities = int(graph.db.scalar("SELECT count(*) FROM entities"))
    if doomed > DELETE_MAX or (doomed >= DELETE_FLOOR and doomed > DELETE_SHARE * entities):
        result.confirm_needed.append(f"“{seg.header.get('name') or seg.device}” deleted {doomed} of this graph's "
                                     f"{entities} entities; confirm to apply (limbic sync --yes).")
        return True
    return False


def _segments(group: list[_Step]) -> list[files.Segment]:
    out: list[files.Segment] = []
    for step in group:
        if step.last:
            out.append(step.seg)
    return out


def _stamp_key(change: dict) -> str:
    """A change's stamp as the clock orders it ("" for one that is not a stamp, which its apply then refuses)."""
    try:
        return state.norm(str(change.get("stamp") or ""))
    except ValueError:
        return ""


def _plan(queues: dict[str, list[files.Segment]], done: dict[str, int], me: str) -> list[list[_Step]]:
    """The groups of changes to apply: of the segments that can apply (each device's next ones, whose
    dependencies are applied or come before them), every change in clock order, cut where every segment
    begun has ended."""
    have = dict(done)
    ready: list[files.Segment] = []
    taken = {dev: 0 for dev in queues}
    grew = True
    while grew:
        grew = False
        for dev in sorted(queues):
            queue = queues[dev]
            while taken[dev] < len(queue):
                seg = queue[taken[dev]]
                if any(have.get(d, 0) < int(s) for d, s in (seg.header.get("deps") or {}).items() if d != me):
                    break
                ready.append(seg)
                have[dev] = seg.seq
                taken[dev] += 1
                grew = True
    if not ready:
        return []
    keyed = []
    high: dict[str, str] = {}
    for seg in sorted(ready, key=lambda s: (s.device, s.seq)):
        # A device's own order is kept whatever its stamps say (a stamp below one before it moves up to it).
        if not seg.changes:
            key = (high.get(seg.device, ""), seg.device, seg.seq, -1)
            keyed.append((key, _Step(seg, None, True, key)))
            continue
        for i, change in enumerate(seg.changes):
            high[seg.device] = max(high.get(seg.device, ""), _stamp_key(change))
            key = (high[seg.device], seg.device, seg.seq, i)
            keyed.append((key, _Step(seg, change, i == len(seg.changes) - 1, key)))
    keyed.sort(key=lambda x: x[0])
    groups: list[list[_Step]] = [[]]
    open_segments: set[tuple[str, int]] = set()
    for _, step in keyed:
        groups[-1].append(step)
        name = (step.seg.device, step.seg.seq)
        if step.last:
            open_segments.discard(name)
        else:
            open_segments.add(name)
        if not open_segments:
            groups.append([])
    return [g for g in groups if g]


def _runs(group: list[_Step]) -> Iterator[list[_Step]]:
    """The group's consecutive changes of one segment."""
    run: list[_Step] = []
    for step in group:
        if run and run[-1].seg is not step.seg:
            yield run
            run = []
        run.append(step)
    if run:
        yield run


def _apply_in_place(graph: Graph, me: str, my_name: str, group: list[_Step], result) -> None:
    """Apply a group at its place in the clock order: where changes applied before lie above it, take them back and
    apply them again after it (``rebase``); where that cannot be, by the rules for a late change."""
    db = graph.db
    low = min(step.key for step in group)[0]
    kept = rebase.above(db, low, [step.change for step in group])
    if kept:
        try:
            _apply_group(graph, me, my_name, group, result, low)
            return
        except rebase.CannotTakeBack as exc:
            logger.info("changes met late applied by the rules: %s", exc)
            kept = None
    _apply_group(graph, me, my_name, group, result, forget=kept is None)


def _again(kept: list[rebase.Kept]) -> list[_Step]:
    """The steps of the groups taken back, as they were applied."""
    out: list[_Step] = []
    segments: dict[tuple[str, int], files.Segment] = {}
    for row in kept:
        for key, device, seq, name, at, change, last in row.steps:
            seg = segments.setdefault((device, seq), files.Segment(device, seq, Path(), {"name": name, "at": at}, []))
            out.append(_Step(seg, change, last, tuple(key), again=True))
    return out


def _apply_group(graph: Graph, me: str, my_name: str, group: list[_Step], result,
                 late: str | None = None, forget: bool = False) -> None:
    """One write transaction: every change of the group in its order, each device's run a change of its own in
    the activity log under its name, and each segment ended recorded as applied. ``late``: the stamp the group
    begins at, below changes applied before, which are taken back first and applied again in their places (looked
    for again inside the transaction: another program may have written since; CannotTakeBack where one did);
    ``forget``: a group applied below kept ones by
    the rules, after which none can be taken back."""
    db = graph.db
    received = conflicts = segments = 0
    entities: set[int] = set()
    names = None

    def origin(run: list[_Step]) -> str:  # this device's own, applied again: marked so (state.AGAIN)
        return f"{state.SYNC_ORIGIN}{state.AGAIN if run[0].seg.device == me else ''}{_name(run[0].seg)}"

    with db.activity.session_as(origin(group)), db.activity.using("sync"), graph.write():
        listed = _open_conflicts(db)
        touched: set[int] = set()
        lifted: dict[str, list[tuple]] = {}
        kept = rebase.above(db, late, [step.change for step in group]) if late is not None else []
        if kept is None:
            raise rebase.CannotTakeBack("a change of this device's own was written since")
        if kept:
            lifted = rebase.lift(db, kept)  # the person's usage signals, put back on their entities made again
            touched = rebase.take_back(db, kept)
            graph._dirty |= touched  # their full-text rows and vectors follow when the transaction ends
            group = sorted(group + _again(kept), key=lambda step: step.key)
        elif forget:
            rebase.forget(db)
        runs = list(_runs(group))
        db.activity.switch(origin(runs[0]))
        recording = rebase.Recording(db)
        chunk: list[_Step] = []
        done = 0

        def keep(final: bool = False) -> None:
            """Record what the steps since the last record wrote (a change of its own in the log too)."""
            nonlocal recording, chunk
            changes.cut(db)  # the log rows too, so that taking the record back removes them
            items = sum(len(step.change.get("items") or ()) for step in chunk if step.change is not None)
            recording.keep([step.kept() for step in chunk], chunk[0].key[0], max(step.key for step in chunk)[0], items)
            recording.close()
            chunk = []
            if not final:
                recording = rebase.Recording(db)

        try:
            for k, run in enumerate(runs):
                if k:
                    changes.cut(db)  # the run before is a change of its own in the log, under its device's name
                    db.activity.switch(origin(run))
                seg = run[0].seg
                applier = Applier(graph, me, my_name, seg.device, _name(seg))
                if names is None:
                    names = applier.names
                else:
                    applier.names = names  # read from the log once for the group, then only what is new since
                try:
                    for step in run:
                        if step.change is not None:
                            applier.apply_change(step.change)
                        chunk.append(step)
                        done += 1
                        if len(chunk) >= CHUNK and not step.last and done < len(group):
                            keep()
                except (Cancelled, DatabaseError):
                    raise  # stopped, or this graph file busy: not the segment's doing
                except Exception as exc:  # noqa: BLE001 - whatever a file makes the apply meet, it is set aside
                    if run[0].again:  # applied before, not after the late change: the rules decide instead
                        raise rebase.CannotTakeBack(f"a change applied again failed: {exc!r}") from exc
                    raise _Failed(seg, exc) from exc
                received += sum(1 for step in run if step.change is not None and not step.again)
                entities |= applier.out.entities
                if run[-1].last and seg.device != me:  # this device's own, applied again: published already
                    if between_apply_and_cursor is not None:
                        between_apply_and_cursor(seg.device, seg.seq)
                    db.execute("INSERT INTO sync_applied(device, seq, name, at) VALUES (?, ?, ?, ?) ON CONFLICT(device) "
                               "DO UPDATE SET seq = max(seq, excluded.seq), name = excluded.name, at = excluded.at",
                               (seg.device, seg.seq, _name(seg), str(seg.header.get("at") or "")))
                    segments += not run[-1].again
                if len(chunk) >= CHUNK and done < len(group):
                    keep()
            rebase.put_back(db, lifted)
            if touched:  # what the window shows of the entities taken back: changed, or gone (made again under new ids)
                present = {i for i in touched if db.scalar("SELECT 1 FROM entities WHERE id = ?", (i,))}
                db.note("changed", present)
                db.note("removed", touched - present)
            keep(final=True)
        finally:
            recording.close()
        conflicts = len(_open_conflicts(db) - listed)
    result.received += received
    result.received_segments += segments
    result.conflicts += conflicts
    result.entities |= entities


def _open_conflicts(db) -> set[str]:
    return {k for (k,) in db.execute("SELECT key FROM sync_conflicts WHERE resolved_at IS NULL")}


def _name(seg: files.Segment) -> str:
    return str(seg.header.get("name") or seg.device[:8])

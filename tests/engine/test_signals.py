"""Search's signals read from the file: an entity's degree."""

from __future__ import annotations


def test_degrees_come_from_the_active_relation_indexes_or_the_table_alike(graph):
    from limbic.engine.graph import signal_memory, signals as signals_module

    for name in ("A", "B", "C", "D"):
        graph.upsert_entity(name, "Thing", [f"{name} note"])
    for source, target, kind in (("A", "B", "knows"), ("A", "C", "knows"), ("D", "A", "owns"), ("B", "C", "knows")):
        graph.add_relation(source, target, kind)
    graph.end_relation("B", "C", "knows")  # ended: no longer counted
    ids = [graph.entity_id(n) for n in ("A", "B", "C", "D")]
    names = {r[0] for r in graph.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"relations_active_from", "relations_active_to"} <= names
    marks = ",".join("?" * len(ids))
    indexed = dict(signal_memory._degrees(graph.db, marks, ids))
    graph.db.execute("DROP INDEX relations_active_from")
    signal_memory.memory(graph.db).facts.clear()  # what was read with the index is read again without it  # a file that lacks them: read from the table
    assert dict(signal_memory._degrees(graph.db, marks, ids)) == indexed == {ids[0]: 3, ids[1]: 1, ids[2]: 1, ids[3]: 1}
    assert {i: s.degree for i, s in signals_module.load_signals(graph.db, ids).items()} == indexed

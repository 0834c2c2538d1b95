"""A device meeting several devices' segments in one exchange applies them in clock order (lowest stamp first,
each device's in sequence, each after the segments it builds on), not one device's after another's: it makes
the changes' places in the order, rather than the rules for a change that arrives below its place, decide."""

from __future__ import annotations

from tests.sync.replicas import devices, next_second


def test_segments_of_two_devices_apply_in_clock_order_in_one_exchange(tmp_path):
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        b.sync(folder)  # joined, with nothing yet: its next changes are stamped when made
        a.graph.upsert_entity("Ada", "Person", ["one"])
        a.sync(folder)  # the laptop's first segment
        next_second()
        b.graph.upsert_entity("Bob", "Person", ["two"])  # the desktop's, made next, published last
        next_second()
        a.graph.add_observations("Ada", ["three"])
        a.sync(folder)  # the laptop's second, which never saw the desktop's
        b.sync(folder)  # published after the laptop's second, below it in clock order
        c.sync(folder)  # the tablet meets all three at once
        applied = [origin for (origin,) in c.graph.db.execute(
            "SELECT origin FROM change_log WHERE origin LIKE 'sync:%' ORDER BY id")]
        assert applied == ["sync:laptop", "sync:desktop", "sync:laptop"]
        texts = [t for (t,) in c.graph.db.execute("SELECT content FROM observations ORDER BY id")]
        assert texts == ["one", "two", "three"]  # made in that order, so numbered here in that order

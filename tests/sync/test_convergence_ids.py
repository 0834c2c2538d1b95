"""More orders of delivery the random three-device runs found diverging (test_convergence.py's, continued)."""

from __future__ import annotations

import pytest

from limbic.engine.sync import capture
from tests.sync.replicas import next_second, settle
from tests.sync.test_convergence import _converged, _texts, trio  # noqa: F401 (trio is a fixture)


def test_a_text_removed_without_seeing_its_edit_comes_back_with_its_entity_where_the_removal_found_it_deleted(trio):
    a, b, c, folder = trio
    a.graph.upsert_entity("Bob", "Person", ["cats", "rain"])
    settle([a, b, c], folder)
    cats = c.graph.db.scalar("SELECT id FROM observations WHERE content = 'cats'")
    c.graph.edit_observation(cats, "cats, edited")
    c.sync(folder)
    b.graph.delete_observation(b.graph.db.scalar("SELECT id FROM observations WHERE content = 'cats'"))  # not seeing the edit
    b.sync(folder)  # the edit wins over the removal here: the text stays, edited
    c.graph.delete_entity("Bob")  # having seen the edit, not the removal
    c.sync(folder)  # the removal finds the text gone with Bob: it was not removed on its own, it lost to the edit
    b.graph.set_entity_type("Bob", "Rain")  # not knowing of the deletion
    settle([a, b, c], folder)  # the deletion gives way to the type: Bob comes back with both texts
    for r in (a, b, c):
        assert _texts(r, "Bob") == ["cats, edited", "rain"], r.device.name
    _converged(a, b, c)


def test_a_rename_undone_by_a_name_made_elsewhere_is_not_undone_again_by_a_namesake_made_on_a_third_device(trio):
    a, b, c, folder = trio
    c.graph.upsert_entity("Ada", "Person", ["chess", "cats"])
    settle([a, b, c], folder)
    c.graph.delete_entity("Ada")
    c.sync(folder)
    a.sync(folder)  # Ada deleted here
    b.graph.rename_entity("Ada", "Ada2")  # not knowing of the deletion
    b.sync(folder)  # the deletion gives way to the rename
    c.sync(folder)  # the rename brings Ada back here, as Ada2
    a.graph.upsert_entity("Ada", "Person", ["tea"])  # a new Ada, made knowing the old one deleted
    c.graph.upsert_entity("Ada", "Person", ["cats"])  # a new Ada too, the old one being Ada2 here
    with pytest.MonkeyPatch.context() as later:  # a's Ada is stamped after the rename
        later.setattr(capture, "_ms", lambda at, real=capture._ms: real(at) + 60_000)
        a.sync(folder)
    b.sync(folder)  # a's Ada is one with the old one, whose name it takes back from the rename
    c.sync(folder)  # a's Ada, the old one and c's Ada are one here
    b.sync(folder)  # c's Ada finds the name held by the old one, by a's creation, not by b's rename
    settle([a, b, c], folder)
    for r in (a, b, c):
        assert [n for (n,) in r.graph.db.execute("SELECT name FROM entities")] == ["Ada"], r.device.name
    _converged(a, b, c)


def test_a_deletion_that_saw_two_namesakes_joined_holds_where_the_later_name_stamp_was_the_joined_ones(trio):
    a, b, c, folder = trio
    next_second()  # the writes below share creation times as they did when the case was found
    c.graph.upsert_entity("Ada", "Person", ["chess"])
    settle([a, b, c], folder)
    c.graph.delete_entity("Ada")
    c.sync(folder)
    a.sync(folder)  # Ada deleted here
    b.graph.rename_entity("Ada", "Ada2")  # not knowing of the deletion
    b.sync(folder)  # the deletion gives way to the rename
    c.sync(folder)  # the rename brings Ada back here, as Ada2
    a.graph.upsert_entity("Ada", "Person", ["tea"])  # a new Ada, made knowing the old one deleted
    a.sync(folder)
    c.graph.upsert_entity("Ada", "Person", ["cats"])  # a new Ada too, the old one being Ada2 here
    with pytest.MonkeyPatch.context() as later:  # c's Ada is stamped after a's
        later.setattr(capture, "_ms", lambda at, real=capture._ms: real(at) + 60_000)
        c.sync(folder)  # published, then a's Ada joins the old one and c's: the name keeps c's later stamp
    c.graph.delete_entity("Ada")  # having seen all three as one
    settle([a, b, c], folder)  # the deletion saw every write: it holds everywhere
    for r in (a, b, c):
        assert r.graph.db.scalar("SELECT count(*) FROM entities") == 0, r.device.name
    _converged(a, b, c)


def test_a_deletion_names_every_id_its_entity_went_by_after_a_text_edit_brought_the_old_one_back_onto_a_namesake(trio):
    a, b, c, folder = trio
    b.graph.upsert_entity("Bob", "Person", ["chess"])
    b.graph.db.execute("UPDATE entities SET gid = ? WHERE name = 'Bob'", ("5" * 32,))
    a.graph.upsert_entity("Bob", "Person", ["tea"])  # the same name made on both: merged, a's id an alias
    a.graph.db.execute("UPDATE entities SET gid = ? WHERE name = 'Bob'", ("8" * 32,))
    settle([a, b, c], folder)
    c.graph.edit_observation(c.graph.db.scalar("SELECT id FROM observations WHERE content = 'tea'"), "tea, edited")
    b.graph.delete_entity("Bob")  # not knowing of the edit
    b.graph.upsert_entity("Bob", "Person", ["chess"])  # a new Bob, made knowing the old one deleted
    b.graph.db.execute("UPDATE entities SET gid = ? WHERE name = 'Bob'", ("2" * 32,))  # the smaller id
    b.sync(folder)
    c.sync(folder)
    b.sync(folder)  # the edit brings the old Bob back here as one with the new one, under the new one's id
    b.graph.delete_entity("Bob")  # having seen every write to it
    settle([a, b, c], folder)  # the deletion names every id Bob went by: it holds everywhere
    for r in (a, b, c):
        assert r.graph.db.scalar("SELECT count(*) FROM entities") == 0, r.device.name
    _converged(a, b, c)


def test_a_text_merged_and_parted_again_keeps_its_own_creation_time(trio):
    a, b, c, folder = trio
    a.graph.upsert_entity("Ada", "Person", ["tea"])
    settle([a, b, c], folder)
    c.graph.add_observations("Ada", ["chess"])  # not knowing of the deletion below
    c.sync(folder)
    tea = c.graph.db.scalar("SELECT id FROM observations WHERE content = 'tea'")
    c.graph.edit_observation(tea, "green tea")  # before c sees the new "tea"
    a.graph.delete_entity("Ada")
    next_second()  # the second "tea" made a second after the first
    a.graph.upsert_entity("Ada", "Person", ["tea"])  # Ada again, with the old text again, made a second later
    a.graph.db.execute("UPDATE observations SET gid = ? WHERE content = 'tea'", ("f" * 32,))
    a.sync(folder)
    b.sync(folder)  # the new "tea" merges with the old one by its text
    c.sync(folder)
    settle([a, b, c], folder)  # on a and b the edit, which never saw the merge, parts the two again
    for r in (a, b, c):
        assert _texts(r, "Ada") == ["chess", "green tea", "tea"], r.device.name
    _converged(a, b, c)

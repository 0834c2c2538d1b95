"""Filters in the query: a filtered search looks deeper and keeps only what matches; the browser's sections."""

from __future__ import annotations

import pytest

from limbic import config
from limbic.engine.errors import ValidationError
from limbic.engine.formats.jsonl import import_file
from limbic.service import organise
from limbic.service.filters import SearchFilter, browse, browser_counts, filtered_search, matching_ids


@pytest.fixture
def sample(text_graph):
    import_file(text_graph, config.resources_dir() / "sample_graph.jsonl", embed=False)
    return text_graph


def _dated(graph, name: str, created: str, updated: str) -> int:
    entity_id = graph.get_entity(name).id
    with graph.write():
        graph.db.execute("UPDATE entities SET created_at = ?, updated_at = ? WHERE id = ?", (created, updated, entity_id))
    return entity_id


def test_relation_type_filter_keeps_both_ends_of_an_active_relation(sample):
    names = {i.name for i in browse(sample, SearchFilter(relation_type="maintains"))}
    assert names == {"Marta Quintero", "CachorroSpace", "Project Orchard", "Tide Clock", "Dotfiles"}


def test_date_ranges_include_both_days_and_bad_ranges_say_why(sample):
    old = _dated(sample, "Chess", "2024-01-10 08:00:00", "2024-03-05 23:59:59")
    _dated(sample, "Running", "2024-02-01 00:00:00", "2024-03-06 00:00:00")
    ids = [i.entity_id for i in browse(sample, SearchFilter(updated_from="2024-03-01", updated_to="2024-03-05"))]
    assert ids == [old]
    created = {i.name for i in browse(sample, SearchFilter(created_to="2024-02-01"))}
    assert created == {"Chess", "Running"}
    with pytest.raises(ValidationError, match="ends .* before it starts"):
        browse(sample, SearchFilter(created_from="2024-05-01", created_to="2024-04-01"))
    with pytest.raises(ValidationError, match="not a date"):
        browse(sample, SearchFilter(updated_from="soonish"))
    with pytest.raises(ValidationError, match="status filter is one of"):
        browse(sample, SearchFilter(status="finished"))


def test_filtered_search_finds_what_a_short_unfiltered_list_would_not_show(sample):
    plain = filtered_search(sample, "harbor", limit=3)
    assert len(plain.results) == 3
    # A relation filter: the engine looks deeper, so matches beyond the first three still come.
    flt = SearchFilter(relation_type="has_skill")
    hits = filtered_search(sample, "skill", flt, limit=3)
    names = [r.name for r in hits.results]
    assert names and set(names) <= {"Marta Quintero", "Skill: dom-cachorroink", "Skill: incident command",
                                    "Skill: sourdough baking"}
    # What a filtered search shows is the deep unfiltered ranking with the rest taken out, in order.
    flt = SearchFilter(relation_type="works_with")
    ranking = [r.entity_id for r in filtered_search(sample, "harbor", limit=200).results]
    keep = matching_ids(sample, flt, ranking)
    expected = [i for i in ranking if i in keep][:3]
    assert len(expected) == 3 and not set(expected) <= set(ranking[:3])  # some come from beyond the top three
    assert [r.entity_id for r in filtered_search(sample, "harbor", flt, limit=3).results] == expected
    none = filtered_search(sample, "sourdough", SearchFilter(relation_type="maintains"))
    assert none.results == [] and none.no_match


def test_status_and_words_filters(sample):
    chess = sample.get_entity("Chess").id
    sample.set_status(chess, "paused")
    assert [i.entity_id for i in browse(sample, SearchFilter(status="paused"))] == [chess]
    words = {i.name for i in browse(sample, SearchFilter(text="postgres ledger"))}  # every word, name or observation
    assert "Decision: use Postgres 16 for the Harbor ledger" in words and "Chess" not in words
    assert browse(sample, SearchFilter(text="100%_")) == []  # LIKE's wildcards are plain characters here
    assert SearchFilter(status="paused", updated_from="2026-01-01").describe() == "status paused, updated from 2026-01-01"


def test_browser_sections_pinned_and_recent(sample):
    tide = sample.get_entity("Tide Clock").id
    organise.set_pinned(sample, tide, True)
    with sample.write():
        sample.db.execute("INSERT INTO entity_access(entity_id, access_count, last_access) VALUES (?, 1, ?)",
                          (sample.get_entity("Chess").id, "2026-01-02 10:00:00"))
        sample.db.execute("INSERT INTO entity_access(entity_id, access_count, last_access) VALUES (?, 1, ?)",
                          (sample.get_entity("Running").id, "2026-01-03 10:00:00"))
    counts = browser_counts(sample)
    assert counts.pinned == 1 and counts.recent == 2 and sum(n for _, n in counts.types) == 50
    assert [i.entity_id for i in browse(sample, view="pinned")] == [tide]
    assert [i.name for i in browse(sample, view="recent")] == ["Running", "Chess"]
    assert [i.name for i in browse(sample, SearchFilter(text="chess"), view="recent")] == ["Chess"]
    with pytest.raises(ValidationError):
        browse(sample, view="favourites")


def test_dates_may_be_said_as_a_person_says_them_in_english_or_spanish(sample):
    from datetime import datetime

    from limbic.service.filters import resolve

    asked = datetime(2024, 3, 13, 10, 0).astimezone()  # a Wednesday
    week = resolve(SearchFilter(updated_from="last week", updated_to="last week"), asked)
    assert (week.updated_from, week.updated_to) == ("2024-03-04", "2024-03-10")
    march = resolve(SearchFilter(created_from="en marzo", created_to="en marzo"), asked)
    assert (march.created_from, march.created_to) == ("2024-03-01", "2024-03-31")
    assert resolve(SearchFilter(updated_from="2024-03-01"), asked).updated_from == "2024-03-01"
    chess = _dated(sample, "Chess", "2024-01-10 08:00:00", "2024-02-20 12:00:00")
    _dated(sample, "Running", "2024-02-01 00:00:00", "2024-03-06 00:00:00")
    ids = [i.entity_id for i in browse(sample, SearchFilter(updated_from="February 2024", updated_to="febrero de 2024"))]
    assert ids == [chess]
    with pytest.raises(ValidationError, match="not a date like 2026-04-30 or a time like"):
        browse(sample, SearchFilter(updated_from="report last week"))  # words besides the time are not a date

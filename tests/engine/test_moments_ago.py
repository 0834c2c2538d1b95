"""Minutes and hours ago, in English and Spanish, wherever a date is typed."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from limbic.engine.errors import ValidationError
from limbic.engine.history.moments import parse_moment
from limbic.engine.store import values
from limbic.engine.text.moments_ago import ago
from limbic.service.filters import SearchFilter, day_bound, resolve
from limbic.service.timeline import since_moment


@pytest.mark.parametrize("typed, back", [
    ("hace 10 minutos", timedelta(minutes=10)), ("hace una hora", timedelta(hours=1)),
    ("1 hour ago", timedelta(hours=1)), ("10 minutes ago", timedelta(minutes=10)),
    ("an hour ago", timedelta(hours=1)), ("half an hour ago", timedelta(minutes=30)),
    ("hace media hora", timedelta(minutes=30)), ("Hace 2 horas.", timedelta(hours=2)),
    ("10min ago", timedelta(minutes=10)), ("hace 3 h", timedelta(hours=3)), ("hace un minuto", timedelta(minutes=1)),
    ("1.5 hours ago", timedelta(minutes=90)), ("hace diez minutos", timedelta(minutes=10)),
])
def test_minutes_and_hours_ago(typed, back):
    assert ago(typed) == back


@pytest.mark.parametrize("typed", ["2 days ago", "hace dos semanas", "ayer", "hour ago", "hace", "a minutes ago",
                                   "10 minutes", "minutes ago", "the meeting 10 minutes ago", "hace 10 patatas",
                                   "99999999999999999999 hours ago"])
def test_anything_else_is_no_moment(typed):
    assert ago(typed) is None


def test_what_changed_since_starts_at_that_moment_not_its_day():
    now = datetime(2026, 12, 7, 9, 30, tzinfo=timezone.utc)
    assert since_moment("hace 10 minutos", now) == "2026-12-07 09:20:00"
    assert since_moment("1 hour ago", now) == "2026-12-07 08:30:00"
    assert since_moment("hace una hora", now) == since_moment("an hour ago", now)
    assert since_moment("10 minutes ago", now) == "2026-12-07 09:20:00"


def test_a_search_filter_takes_the_day_the_moment_fell_on():
    now = datetime(2026, 12, 7, 0, 20, tzinfo=timezone.utc)
    assert day_bound("hace 10 minutos", "from", now=now) == "2026-12-07"
    assert day_bound("1 hour ago", "from", now=now) == "2026-12-06"  # an hour before 00:20 was yesterday
    flt = resolve(SearchFilter(updated_from="hace una hora", created_to="10 minutes ago"), now)
    assert (flt.updated_from, flt.created_to) == ("2026-12-06", "2026-12-07")
    with pytest.raises(ValidationError, match="10 minutes ago"):  # the refusal names the form
        day_bound("hace 10 patatas", "from", now=now)


def test_as_of_takes_a_moment_ago():
    at = parse_moment("hace 10 minutos")
    expected = (datetime.now(timezone.utc) - timedelta(minutes=10)).strftime(values.TIME_FORMAT)
    assert abs(datetime.strptime(at, values.TIME_FORMAT) - datetime.strptime(expected, values.TIME_FORMAT)) \
        <= timedelta(seconds=5)

"""Writes held by the secrets guard, in the Activity panel: a real assistant (`limbic mcp`) sends what looks like a
credential, the open panel lists it in the assistant's place with why and for which entity, masked; the person
accepts it (as private), or discards it, there."""

from __future__ import annotations

import anyio

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import held
from tests.activity.writers import assistant, call, ok
from tests.ui.conftest import make_window
from tests.ui.test_spanish_window import spanish  # noqa: F401 - the fixture

KEY = "sk-proj-4fG7hJ2kL9mN3pQ8rS1tV6wX0yZ5aB2cD7eF4gH9iJ3kL8mN1pQ6rS0tV5w"
PASSWORD = "Tr0ub4dor&3"


def _graph(path):
    g = Graph(Database(path))
    g.upsert_entity("Ada", "Person", ["plays chess"])
    g.db.close()


def _read(path, fn):
    g = Graph(Database(path, readonly=True))
    try:
        return fn(g)
    finally:
        g.db.close()


def _observations(path, name):
    return _read(path, lambda g: sorted(g.get_entity(name).observation_texts) if g.entity_id(name) else None)


def _send(path, *calls, plain=True):
    """One session of assistant alpha: a plain write first (unless not ``plain``), then each call (the guard holds)."""
    async def run():
        async with assistant(path, "alpha") as a:
            if plain:
                await ok(a, "add_observations", observations=[{"entityName": "Ada", "contents": ["likes tea"]}])
            for tool, arguments in calls:
                is_error, text, _ = await call(a, tool, **arguments)
                assert is_error and "Held for the person to review" in text, text
    anyio.run(run)


def _held_rows(panel):
    return [r for r in panel.rows() if r.startswith("Held for your review")]


def _choose(panel, needle):
    for item in panel._walk():
        if item.text(0).startswith("Held for your review") and needle in item.text(0):
            panel.tree.setCurrentItem(item)
            return item
    raise AssertionError(f"no held row with {needle!r} in {panel.rows()}")


def _open_panel(qtbot, path):
    w = make_window(qtbot, path, wait_model=False)
    w.activity.show()
    panel = w.activity.dock.panel
    qtbot.waitUntil(lambda: panel.data is not None, timeout=30_000)
    return w, panel


def test_a_held_write_appears_masked_in_its_assistants_place_and_accept_stores_it(qtbot, tmp_path):
    path = tmp_path / "g.db"
    _graph(path)
    w, panel = _open_panel(qtbot, path)
    _send(path)
    qtbot.waitUntil(lambda: any(r.startswith("alpha") for r in panel.rows()), timeout=30_000)
    assert _held_rows(panel) == []
    # Sent while the panel is open: the panel follows it (a held write makes no change the window is told of).
    _send(path, ("add_observations", {"observations": [{"entityName": "Ada", "contents": [f"api key {KEY}"]}]}),
          plain=False)
    qtbot.waitUntil(lambda: len(_held_rows(panel)) == 1, timeout=30_000)
    row = _choose(panel, "Ada")
    assert "an observation looks like an API key (OpenAI)" in row.text(0) and "for “Ada”" in row.text(0)
    assert row.parent() is not None and row.parent().text(0).startswith("alpha")  # under alpha's session
    assert "1 held for your review" in row.parent().text(0)
    shown = " ".join(panel.rows()) + " ".join(item.toolTip(0) for item in panel._walk())
    assert KEY not in shown and KEY[:12] not in shown
    assert row.child(0).text(0) == "+ “api key sk-p••••••••”"
    assert "held for review" in w.activity.badge.text()

    bar = panel.held_bar
    assert bar.isVisible() and bar.accept_button.isVisible()
    bar.show_button.click()  # shown in full only when asked
    assert row.child(0).text(0).replace("\u200b", "") == f"+ “api key {KEY}”"  # (breakable where it is long)
    bar.show_button.click()
    assert KEY not in row.child(0).text(0)

    bar.accept_button.click()
    qtbot.waitUntil(lambda: f"api key {KEY}" in (_observations(path, "Ada") or []), timeout=30_000)
    qtbot.waitUntil(lambda: _held_rows(panel) == [], timeout=30_000)
    assert bar.outcome.text().startswith("Accepted: stored as your own write to “Ada”")
    assert w.status.last_message.startswith("Accepted")
    assert [h.state for h in _read(path, lambda g: held.held(g, True))] == ["accepted"]
    assert _read(path, lambda g: g.db.scalar("SELECT private FROM entities WHERE name = 'Ada'")) == 0
    # Edit → Undo takes the accepted write back, as any other of the person's writes.
    w.undo.on_undo()
    qtbot.waitUntil(lambda: f"api key {KEY}" not in (_observations(path, "Ada") or []), timeout=30_000)


def test_accept_as_private_stores_it_private_and_discard_stores_nothing(qtbot, tmp_path):
    path = tmp_path / "g.db"
    _graph(path)
    _send(path, ("create_entities", {"entities": [{"name": "Wifi", "entityType": "Thing",
                                                   "observations": [f"password: {PASSWORD}"]}]}),
          ("add_observations", {"observations": [{"entityName": "Ada", "contents": [f"token {KEY}"]}]}))
    w, panel = _open_panel(qtbot, path)
    qtbot.waitUntil(lambda: len(_held_rows(panel)) == 2, timeout=30_000)
    assert PASSWORD not in " ".join(panel.rows())
    wifi = _choose(panel, "Wifi")
    assert "an observation looks like a password" in wifi.text(0)
    assert "+ “password: ••••••••”" in [wifi.child(i).text(0) for i in range(wifi.childCount())]

    panel.held_bar.private_button.click()
    qtbot.waitUntil(lambda: _observations(path, "Wifi") == [f"password: {PASSWORD}"], timeout=30_000)
    qtbot.waitUntil(lambda: len(_held_rows(panel)) == 1, timeout=30_000)
    assert _read(path, lambda g: g.db.scalar("SELECT private FROM entities WHERE name = 'Wifi'")) == 1
    assert panel.held_bar.outcome.text().startswith("Accepted as private")

    _choose(panel, "Ada")
    panel.held_bar.discard_button.click()
    qtbot.waitUntil(lambda: _held_rows(panel) == [], timeout=30_000)
    assert _observations(path, "Ada") == ["likes tea", "plays chess"]
    assert panel.held_bar.outcome.text().startswith("Discarded")
    assert [h.state for h in _read(path, lambda g: held.held(g, True))] == ["accepted", "discarded"]
    assert _read(path, lambda g: g.db.scalar("SELECT count(*) FROM held_writes WHERE arguments LIKE '%sk-proj%'")) == 0


def test_the_list_masks_every_kind_of_credential_and_keeps_the_words_around_it():
    from limbic.ui.activity.held_rows import reason_words

    cases = {  # what is sent → (the secret part, what stays in view)
        f"api key {KEY}": (KEY[4:], "api key sk-p"),
        f"password: {PASSWORD}": (PASSWORD, "password: "),
        "card 4111 1111 1111 1111 expires soon": ("4111 1111 1111", "1111 expires soon"),
        "iban ES91 2100 0418 4502 0005 1332": ("2100 0418 4502", "iban ES91"),
        "router https://admin:hunter2hunter@router.local": ("hunter2hunter", "https://admin:"),
        "AKIAIOSFODNN7EXAMPLE": ("IOSFODNN7EXAMPLE", "AKIA"),
    }
    for sent, (secret, kept) in cases.items():
        shown = held.masked(sent)
        assert secret not in shown and kept in shown and held.MASK in shown, (sent, shown)
    assert held.masked("commit 3c53718e2f0b6a1d9c4e8f7a2b5d0c1e9f8a7b6c") == "commit 3c53718e2f0b6a1d9c4e8f7a2b5d0c1e9f8a7b6c"


def test_why_a_write_was_held_is_said_in_spanish(spanish):
    from limbic.ui.activity.held_rows import HeldShown, held_title, reason_words

    assert reason_words("an observation looks like an API key (OpenAI)") == "una observación parece una clave de API (OpenAI)"
    assert reason_words("a name looks like a card number") == "un nombre parece un número de tarjeta"
    assert reason_words("something else entirely") == "something else entirely"  # not the service's words: as it is
    h = HeldShown(1, "2026-12-07 10:30:00", "alpha", "create_entities", ["an observation looks like a password"],
                  ["Wifi"], ["password: x1234567"], ["password: ••••••••"])
    assert held_title(h) == ("Retenida para que la revises: una observación parece una contraseña · para “Wifi” · "
                             "10:30, 2026-12-07")

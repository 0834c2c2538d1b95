"""Status-bar messages are never cut at the counts: they shorten with "…" and keep the rest behind Details…."""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow

from limbic.service.importers import ImportReport
from limbic.ui.shell.status import StatusPanel

JOB_MS = 120_000


def _bar(qtbot, width: int) -> tuple[QMainWindow, StatusPanel]:
    host = QMainWindow()
    qtbot.addWidget(host)
    bar = StatusPanel(host)
    host.setStatusBar(bar)
    bar.set_counts({"entities": 56, "relations": 60})
    bar.set_model("Model: multilingual-e5-small")
    host.resize(width, 300)
    host.show()
    qtbot.waitExposed(host)
    return host, bar


def test_a_long_message_shortens_before_the_counts_and_offers_details(qtbot):
    host, bar = _bar(qtbot, 700)
    text = ("Imported vault: 12 entities read (12 new), 30 observations, 8 relations added; 1 file skipped "
            "(attachments/diagram.bin: binary, not text)")
    bar.say(text, 0, details=["skipped attachments/diagram.bin: binary, not text"])
    qtbot.waitUntil(lambda: bar.message.width() > 0)
    assert bar.counts.text() == "56 entities · 60 relations"
    # The message ends before the counts begin, and says it was shortened.
    assert bar.message.geometry().right() < bar.counts.geometry().left()
    assert bar.counts.width() >= bar.counts.sizeHint().width()
    assert bar.message.text().endswith("…") and bar.message.full_text == text
    assert bar.details_button.isVisible()
    bar.details_button.click()
    box = bar.details_box
    assert text in box.text() and "diagram.bin" in box.informativeText()
    box.close()


def test_a_short_message_has_no_details_link_and_goes_away(qtbot):
    host, bar = _bar(qtbot, 1200)
    bar.say("Saved.", 50)
    assert bar.message.text() == "Saved." and not bar.details_button.isVisible()
    qtbot.waitUntil(lambda: bar.message.text() == "", timeout=3000)


def test_undo_shows_only_beside_the_sentence_that_offers_it(qtbot):
    host, bar = _bar(qtbot, 1200)
    bar.offer_undo(True)
    bar.say("Saved.")
    assert not bar.undo_button.isVisible()  # no stray "Undo" after an ordinary save
    bar.say("Deleted “Dune”. Press Ctrl+Z to undo.")
    assert bar.undo_button.isVisible()
    bar.say("Model ready.")
    assert not bar.undo_button.isVisible()


def test_counts_and_reports_use_singular_and_plural(qtbot):
    host, bar = _bar(qtbot, 900)
    bar.set_counts({"entities": 1, "relations": 1})
    assert bar.counts.text() == "1 entity · 1 relation"
    report = ImportReport("markdown", "/v", entities_read=1, entities_created=1, observations_added=1,
                          relations_added=2, skipped=["a.png: binary, not text"])
    text = report.describe()
    assert text.startswith("1 entity read (1 new), 1 observation, 2 relations added; 1 file skipped (a.png")
    assert report.details() == ["skipped a.png: binary, not text"]


def test_an_import_names_its_skipped_files_behind_details(qtbot, window, tmp_path):
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Dune.md").write_text("A novel by Frank Herbert.\n", encoding="utf-8")
    (vault / "broken.md").write_bytes(b"\xff\xfe\x00binary\x00")
    window.files.ask_folder = lambda title: str(vault)
    with qtbot.waitSignal(window.job_ended, timeout=JOB_MS) as ended:
        window.files.import_folder_action.trigger()
    assert ended.args == ["import", True], window.status.last_message
    assert "1 file skipped (broken.md" in window.status.last_message
    assert any("broken.md" in line for line in window.status.last_details)

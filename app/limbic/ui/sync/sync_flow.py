"""Sync in the background: the folder watched, local commits followed, one exchange at a time on the engine's thread.

The exchange is an ordinary operation queued to the engine's worker (never a long job: edits are not
refused meanwhile), so the window never waits for the folder. A status-bar item says where sync
stands and opens the Conflicts view.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, Qt, QTimer
from PySide6.QtWidgets import QMessageBox, QToolButton, QWidget

from limbic import service
from limbic.engine.errors import ValidationError
from limbic.service import sync as service_sync
from limbic.service.types import ChangeSet, Graph
from limbic.ui.common.hooks import StatusLine, WindowHooks
from limbic.ui.sync.conflicts_view import ConflictsView, make_view
from limbic.ui.sync.sync_dialog import SyncDialog
from limbic.ui.workers.worker import Engine
from limbic.ui.common.i18n import translate

logger = logging.getLogger(__name__)

FOLDER_DEBOUNCE_MS = 1_500  # a sync tool writes a segment in several steps: wait until it is quiet
COMMIT_DEBOUNCE_MS = 3_000  # a burst of edits goes out as one segment
RETRY_MS = 30_000  # the folder unreachable, or another program syncing this file
REACH_MS = 3_000  # how often the folder's presence is looked at (an unmounted share sends no event)


def exchange_op(graph: Graph, folder: str, confirm: bool, code: str | None = None) -> tuple[object, list]:
    """One exchange under the file's sync lock, then the open conflicts (run on the engine's thread)."""
    result = service_sync.exchange_if_free(graph, folder, confirm=confirm, code=code)
    return result, service_sync.list_conflicts(graph)


def seal_anew_op(graph: Graph, folder: str) -> tuple[object, list]:
    """Seal the folder anew under a new code (run on the engine's thread): the exchange's result, the conflicts."""
    result = service_sync.seal_anew(graph, folder)
    return result, service_sync.list_conflicts(graph)


def conflicts_op(graph: Graph) -> list:
    """The open conflicts."""
    return service_sync.list_conflicts(graph)


def resolve_op(graph: Graph, conflict_id: int, keep: str) -> tuple[list, ChangeSet]:
    """Keep one side of a conflict; the open conflicts that remain, and what the choice changed."""
    with service.collect(graph.db) as changed:
        service_sync.resolve_conflict(graph, conflict_id, keep)
    return service_sync.list_conflicts(graph), changed


@dataclass(frozen=True)
class SyncParts:
    """What sync in the window works with."""

    engine: Engine
    status: StatusLine
    hooks: WindowHooks
    add_badge: Callable[[QWidget], None]  # a permanent item of the status bar
    open_entity: Callable[[str], None]
    # The entity open in the editor, to follow a choice that changed it (None: none is open).
    open_entity_id: Callable[[], int | None] = lambda: None
    editor_dirty: Callable[[], bool] = lambda: False
    reload: Callable[[int], object] = lambda _entity_id: None
    clear_editor: Callable[[], None] = lambda: None
    follow_changes: Callable[[ChangeSet], None] = lambda _changes: None  # another writer's: edits kept, said


class SyncFlow(QObject):
    """Owns the folder watcher, the debounce timers, the status item and the Conflicts view."""

    def __init__(self, parts: SyncParts) -> None:
        super().__init__(parts.hooks.parent)
        self.p = parts
        self.db_path: Path | None = None
        self.folder: Path | None = None
        self.state = "off"  # off | syncing | synced | conflicts | unreachable | waiting
        self.conflicts: list = []
        self.running = False
        self._again = False
        self._confirm = False
        self.exchanges = 0  # finished exchanges (tests wait on it)
        self.code: str | None = None  # a recovery code typed in File → Sync…, until an exchange has used it
        self.set_aside: list[str] = []  # sentences: files of the folder the last exchange set aside
        self.show_code: Callable[[str], None] = self._show_code
        self.last_result = None
        self.ask_confirm: Callable[[list[str]], bool] = self._ask_confirm
        self.watcher = QFileSystemWatcher(self)
        self.watcher.directoryChanged.connect(self._folder_changed)
        self.timer = QTimer(self, singleShot=True)
        self.timer.timeout.connect(self.sync_now)
        # The status item tells the truth within seconds of the folder going away (moved, removed, a share
        # unmounted), not at the next exchange: its parent is watched, and its presence looked at now and then.
        self.reach = QTimer(self, interval=REACH_MS)
        self.reach.timeout.connect(self.check_reach)
        self.button = QToolButton(objectName="syncStatus")
        self.button.setAutoRaise(True)
        self.button.clicked.connect(self._clicked)
        self.button.hide()
        parts.add_badge(self.button)
        self.view: ConflictsView | None = None
        self._resolving: tuple[int, str] | None = None  # the choice asked last: (conflict id, keep)
        engine = parts.engine
        engine.worker.opened.connect(self.on_opened)
        engine.worker.outside_changes.connect(lambda _changes: self.on_commit())
        engine.changes_applied.connect(lambda _changes: self.on_commit())

    # -- the folder and its watcher ---------------------------------------------------------

    def on_opened(self, catalog) -> None:
        """Another file: its own folder (or none), synced at once."""
        self.db_path = Path(catalog.path)
        self.conflicts = []
        self.use_folder(service_sync.remembered_folder(self.db_path))

    def use_folder(self, folder: Path | None) -> None:
        self.folder = folder
        self._watch()
        if folder is None:
            self.timer.stop()
            self.reach.stop()
            self._set_state("off")
        else:
            self.reach.start()
            self.schedule(0)

    def check_reach(self) -> None:
        """The folder gone: said at once; back again: an exchange at once."""
        if self.folder is None:
            return
        here = self.folder.is_dir()
        if not here and self.state != "unreachable" and not self.running:
            self.timer.start(RETRY_MS)
            self._set_state("unreachable", translate("SyncFlow", "The sync folder {folder} cannot be reached (it does not exist or is "
                                               "not a folder); sync resumes when it can.").format(folder=self.folder))
        elif here and self.state == "unreachable" and not self.running:
            self._watch()
            self.schedule(0)

    def _watch(self) -> None:
        """Watch the folder's directories down to each device's, except this device's own."""
        if self.watcher.directories():
            self.watcher.removePaths(self.watcher.directories())
        if self.folder is None:
            return
        if self.folder.parent.is_dir() and self.folder.parent != self.folder:
            self.watcher.addPath(str(self.folder.parent))  # the folder itself moved or removed
        if not self.folder.is_dir():
            return
        mine = service_sync.this_device(self.db_path).id if self.db_path else ""
        paths = [self.folder]
        root = self.folder / "Limbic"
        if root.is_dir():
            paths.append(root)
            for graph_dir in (d for d in root.iterdir() if d.is_dir()):
                paths.append(graph_dir)
                paths.extend(d for d in graph_dir.iterdir() if d.is_dir() and d.name != mine)
        self.watcher.addPaths([str(p) for p in paths])

    def _folder_changed(self, _path: str) -> None:
        if self.folder is not None and not self.folder.is_dir():
            self.check_reach()  # gone: said now, not after the quiet spell and an exchange that fails
            return
        self.schedule(FOLDER_DEBOUNCE_MS)

    # -- when to exchange -------------------------------------------------------------------

    def on_commit(self) -> None:
        """A commit to the file (this window's or another program's): published after a quiet spell."""
        if self.folder is not None and not self.running:  # the exchange's own apply is no new work
            self.schedule(COMMIT_DEBOUNCE_MS)

    def schedule(self, delay_ms: int) -> None:
        if self.folder is None:
            return
        if self.running:
            self._again = True
            return
        if not self.timer.isActive() or self.timer.remainingTime() > delay_ms:
            self.timer.start(delay_ms)

    def sync_now(self) -> None:
        """Queue one exchange on the engine's thread (at most one at a time)."""
        if self.folder is None or self.db_path is None:
            return
        if self.running:
            self._again = True
            return
        self.running, self._again = True, False
        self._set_state("syncing")
        confirm, self._confirm = self._confirm, False
        self.p.engine.run("sync", exchange_op, str(self.folder), confirm, self.code, what="syncing",
                          on_done=self._done, on_failed=self._failed)

    def _done(self, value: tuple) -> None:
        self.running = False
        result, self.conflicts = value
        self.last_result = result
        self.exchanges += 1
        self._watch()  # a new device's folder may have appeared
        if self.view is not None:
            self.view.set_conflicts(self.conflicts)
        if result is None:  # another program (an assistant's server) syncs this file now
            self._set_state("waiting")
            self.timer.start(RETRY_MS)
            return
        self.code = None  # kept on this machine now
        if result.new_code:
            self.show_code(result.new_code)
        if result.device_note:
            self.p.status.say(result.device_note, 0)
        if result.confirm_needed and self.ask_confirm(result.confirm_needed):
            self._confirm, self._again = True, True
        elif result.confirm_needed:
            self.p.status.say(translate("SyncFlow", "A batch from another device waits for your confirmation; File → Sync… asks again."))
        elif result.received or result.sent:
            sent, received = result.sent, result.received
            self.p.status.say(translate("SyncFlow", "Synced: {sent} sent, {received} received.").format(
                sent=translate("SyncFlow", "%n changes", "", sent), received=translate("SyncFlow", "%n changes", "", received)))
        self.set_aside = [w for w in result.waiting if "set aside" in w]  # a file no exchange can read: why it waits
        if self.set_aside:
            self.p.status.say(self.set_aside[0], 15_000)
        self._set_state("conflicts" if self.conflicts else "synced")
        if self._again:
            self.schedule(0)

    def _failed(self, failure) -> None:
        self.running = False
        self.exchanges += 1
        if isinstance(failure.error, service_sync.SealError):  # a code to type: retrying would say it again
            self._set_state("code", failure.message)
            self.p.status.say(failure.message, 0)
            return
        self._set_state("unreachable", failure.message)
        self.timer.start(RETRY_MS)

    def _clicked(self) -> None:
        """The status item: the code asked for in File → Sync… where one is needed, else the Conflicts view."""
        if self.state == "code":
            self.choose()
        else:
            self.show_conflicts()

    def _show_code(self, code: str) -> None:
        """The recovery code of a folder this device just sealed, once, where the person can copy it."""
        box = QMessageBox(QMessageBox.Icon.Information, translate("SyncFlow", "Keep this recovery code"),
                          translate("SyncFlow", "This graph's sync folder is sealed: only your own devices can read it "
                              "or add to it.\n\nRecovery code:  {code}\n\nAnother device joins with it "
                              "(File → Sync…, Recovery code). Keep it in a password manager or on "
                              "paper; limbic sync --show-code shows it again here. Losing it loses "
                              "no data.").format(code=code), QMessageBox.StandardButton.Ok, self.p.hooks.parent)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def _ask_confirm(self, sentences: list[str]) -> bool:
        answer = QMessageBox.question(self.p.hooks.parent, translate("SyncFlow", "Apply these deletions?"),
                                      "\n".join(sentences) + translate("SyncFlow", "\n\nApply them to this graph?"))
        return answer == QMessageBox.StandardButton.Yes

    # -- the status item --------------------------------------------------------------------

    def _set_state(self, state: str, why: str = "") -> None:
        self.state = state
        n_conflicts = len(self.conflicts)
        texts = {"syncing": translate("SyncFlow", "Syncing…"), "synced": translate("SyncFlow", "Synced"), "waiting": translate("SyncFlow", "Sync waits"),
                 "unreachable": translate("SyncFlow", "Sync folder unreachable"),
                 "code": translate("SyncFlow", "Sync needs the recovery code"),
                 "conflicts": translate("SyncFlow", "%n sync conflicts", "", n_conflicts)}
        aside = self.set_aside
        tips = {"synced": "\n".join(aside) if aside else translate("SyncFlow", "Every change is exchanged with {folder}. Click to see past conflicts.").format(folder=self.folder),
                "syncing": translate("SyncFlow", "Exchanging changes with {folder}.").format(folder=self.folder),
                "waiting": translate("SyncFlow", "Another program is syncing this graph; this window tries again shortly."),
                "unreachable": why or translate("SyncFlow", "{folder} cannot be reached; sync resumes when it can.").format(folder=self.folder),
                "conflicts": translate("SyncFlow", "Click to choose, for each, which value to keep."),
                "code": why + translate("SyncFlow", "\nClick to type it.")}
        self.button.setVisible(state != "off")
        self.button.setText(texts.get(state, ""))
        self.button.setToolTip(tips.get(state, ""))
        self.button.setAccessibleName(texts.get(state, "Sync"))

    # -- File → Sync… and the Conflicts view ------------------------------------------------

    def choose(self) -> None:
        """File → Sync…: the folder and this device's name."""
        if self.db_path is None:
            return
        dialog = self.dialog()
        if dialog.exec() != SyncDialog.DialogCode.Accepted:
            return
        if dialog.new_code_asked:
            self.seal_anew()
            return
        self.apply_choice(dialog.folder.text().strip(), dialog.name.text(), dialog.stop_asked,
                          dialog.code.text().strip() or None)

    def dialog(self) -> SyncDialog:
        """File → Sync… as it stands now: a new recovery code is offered only where this device opens the folder
        (one still waiting for the code, a wrong one typed, would be refused: it holds no key to seal with)."""
        return SyncDialog(str(self.folder or ""), service_sync.device_name(), self.p.hooks.parent,
                          can_seal=self.state != "code")

    def seal_anew(self) -> None:
        """A new recovery code for the folder; shown once, as a first one is."""
        if self.folder is None or self.running:
            self.p.status.say(translate("SyncFlow", "Sync is busy; try the new code again in a moment."))
            return
        self.running = True
        self._set_state("syncing")
        self.p.engine.run("sync", seal_anew_op, str(self.folder), what=translate("SyncFlow", "sealing the folder anew"),
                          on_done=self._done, on_failed=self._failed)

    def apply_choice(self, folder: str, name: str, stop: bool = False, code: str | None = None) -> None:
        """Save the device name and start (or stop) syncing this file with ``folder``."""
        service_sync.set_device_name(name)
        if stop or not folder:
            service_sync.forget_folder(self.db_path)
            self.use_folder(None)
            self.p.status.say(translate("SyncFlow", "This graph no longer syncs from this device."))
            return
        if not Path(folder).expanduser().is_dir():
            self.p.status.say(translate("SyncFlow", "The sync folder {folder} does not exist; choose a folder that does.").format(folder=folder))
            return
        self.code = code
        self.use_folder(Path(folder).expanduser())

    def show_conflicts(self) -> ConflictsView:
        """Open the Conflicts view (and read the conflicts again)."""
        if self.view is None:
            self.view = make_view(self.p.hooks.parent, self.resolve, self.open_from_view)
        self.view.set_conflicts(self.conflicts)
        self.view.show()
        self.view.raise_()
        self.p.engine.run("sync-conflicts", conflicts_op, what=translate("SyncFlow", "reading the conflicts"), on_done=self._conflicts_read)
        return self.view

    def open_from_view(self, name: str) -> None:
        """Enter in the Conflicts view: the entity in the editor, the view stepped aside so it does not stand
        over it (a dialog stays above its window); Ctrl+Shift+Y or the status item brings it back."""
        if self.view is not None:
            self.view.hide()
        self.p.open_entity(name)
        self.p.status.say(translate("SyncFlow", "Ctrl+Shift+Y shows the sync conflicts again."), 10_000)

    def _conflicts_read(self, conflicts: list) -> None:
        self.conflicts = conflicts
        if self.view is not None:
            self.view.set_conflicts(conflicts)
        if self.state in ("synced", "conflicts"):
            self._set_state("conflicts" if conflicts else "synced")

    def resolve(self, conflict_id: int, keep: str) -> None:
        """Keep one side; the choice goes out with the next exchange."""
        self._resolving = (conflict_id, keep)
        self.p.engine.run("sync-resolve", resolve_op, conflict_id, keep, what=translate("SyncFlow", "resolving the conflict"),
                          on_done=self._resolved, on_failed=self._resolve_failed)

    def _resolved(self, value: tuple) -> None:
        """The conflicts that remain; the open entity shows what the choice made of it (a text kept beside
        the other, a name or type taken back, the entity deleted again), as it shows a sync's changes."""
        conflicts, changed = value
        self._conflicts_read(conflicts)
        entity_id = self.p.open_entity_id()
        if entity_id is None or not changed.touches(entity_id):
            return
        if self.p.editor_dirty():
            self.p.follow_changes(changed)  # the person's unsaved edits stay, what arrived noted in the editor
            self.p.status.say(translate("SyncFlow", "Your choice changed the entity you are editing; your unsaved edits "
                                        "stay, and saving applies only them."), 0)  # not "another program"
        elif entity_id in changed.removed:
            self.p.clear_editor()
            self.p.status.say(translate("SyncFlow", "The entity you had open is deleted: you chose to delete it again."), 0)
        else:
            self.p.reload(entity_id)

    def _resolve_failed(self, failure) -> None:
        """Said where the person pressed the key (the view stands over the window's status bar), and there too."""
        message = self._refusal_words(failure) or failure.message
        self.p.status.say(message)
        if self.view is not None:
            self.view.say(message)

    def _refusal_words(self, failure) -> str:
        """A choice the graph cannot take, in the window's language ("" when it is no refusal of the choice)."""
        asked = self._resolving
        c = next((c for c in self.conflicts if asked and c.id == asked[0]), None)
        if c is None or not isinstance(failure.error, ValidationError):
            return ""
        if c.rule == "rename_taken":
            name = c.mine if asked[1] == "mine" else c.theirs
            return translate("SyncFlow", "Another entity is named “{name}”; rename or merge it first.").format(name=name)
        if c.deleter is not None and asked[1] != c.deleter:
            return translate("SyncFlow", "“{name}” is no longer in the graph: it was deleted again since. Choose “delete "
                             "it again” to close this conflict, or bring it back from its history.").format(name=c.entity or "?")
        return ""

"""Two real Syncthing daemons on 127.0.0.1 sharing one folder, started and always stopped by the tests.

Each daemon has its own temporary home, its own loopback ports and a config patched before its first
``serve`` so that nothing leaves the machine: no discovery, relays, NAT, usage or crash reports, upgrades,
and every outside URL pointed at a loopback port nothing listens on. The second daemon starts only once
the first answers ``/rest/system/ping`` (started together they can dial each other at the same moment and
hang the handshake for ~20 s). Each daemon's output goes to ``syncthing.log`` in its home; every failure
message ends with both logs' tails.

    with syncthing_pair(tmp_path) as pair:
        (pair.a.folder / "x").write_text("hello")
        pair.wait_synced("x")          # now pair.b.folder / "x" holds "hello" and both folders are idle
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FOLDER_ID = "limbic-sync-test"
READY_TIMEOUT = 30.0  # from nothing to "connected, folder idle" takes ~3 s on a quiet machine
PING_TIMEOUT = 20.0
STOP_TIMEOUT = 10.0
KILL_TIMEOUT = 5.0
POLL = 0.1
LOG_TAIL_LINES = 40
# Syncthing's own names on the receiving side and the folder marker: never part of what a test compares.
SYNCTHING_NAMES = (".stfolder", ".stignore", ".stversions")
INSTALL_HINT = (
    "the Syncthing tests need Debian's syncthing package: `make test-slow` installs it where apt-get "
    "exists, or run `apt-get install syncthing`"
)

# Every daemon started and not yet seen stopped, so that an interpreter leaving early still stops them.
_RUNNING: list[Daemon] = []


class SyncthingError(AssertionError):
    """A daemon that would not start, connect, sync or stop in time; the message carries both logs."""


def syncthing_binary() -> str:
    """The path of the ``syncthing`` program, or a clear error saying how to install it."""
    path = shutil.which("syncthing")
    if path is None:
        raise SyncthingError("syncthing is not installed: " + INSTALL_HINT)
    return path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _proc_start_time(pid: int) -> str | None:
    # Field 22 of /proc/PID/stat: with the pid it names one process even if the pid is reused later.
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()
    return None if fields[0] == "Z" else fields[19]


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        for children in Path(f"/proc/{current}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                for child in children.read_text().split():
                    found.append(int(child))
                    todo.append(int(child))
    return found


def _socket_table() -> dict[str, tuple[str, str, str]]:
    # Every socket of this network namespace by inode: protocol, local and remote address (hex, kernel order).
    table = {}
    for proto in ("tcp", "tcp6", "udp", "udp6", "raw", "raw6"):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/net/{proto}").read_text().splitlines()[1:]:
                cols = line.split()
                table[cols[9]] = (proto, cols[1], cols[2])
    return table


def _ipv4(hex_address: str) -> str:
    host, port = hex_address.split(":")
    return ".".join(str(int(host[i:i + 2], 16)) for i in (6, 4, 2, 0)) + f":{int(port, 16)}"


@dataclass
class Daemon:
    """One Syncthing daemon: its home, its shared folder, its loopback ports and its process."""

    name: str
    home: Path
    folder: Path
    gui_port: int
    listen_port: int
    device_id: str = ""
    api_key: str = ""
    process: subprocess.Popen | None = None
    _pids: dict[int, str] = field(default_factory=dict)

    @property
    def log_path(self) -> Path:
        """Where the daemon's stdout and stderr go."""
        return self.home / "syncthing.log"

    def log_tail(self, lines: int = LOG_TAIL_LINES) -> str:
        """The last lines the daemon logged."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def rest(self, method: str, path: str, timeout: float = 3.0) -> Any:
        """One call of the REST API on the daemon's loopback GUI port; the decoded JSON answer."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.gui_port}{path}", method=method, headers={"X-API-Key": self.api_key}
        )
        # No proxy from the environment may see (or carry) a loopback call.
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(request, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body.strip() else None

    def answers(self) -> bool:
        """Whether the daemon answers ``/rest/system/ping``."""
        try:
            return self.rest("GET", "/rest/system/ping", timeout=1.0) == {"ping": "pong"}
        except (OSError, ValueError):
            return False

    def connected_to(self, peer: Daemon) -> bool:
        """Whether the daemon has a live connection to ``peer``."""
        connections = self.rest("GET", "/rest/system/connections")["connections"]
        return bool(connections.get(peer.device_id, {}).get("connected"))

    def folder_state(self) -> str:
        """The shared folder's state on this daemon: idle, scanning, syncing, …"""
        return self.rest("GET", f"/rest/db/status?folder={FOLDER_ID}")["state"]

    def peer_complete(self, peer: Daemon) -> bool:
        """Whether this daemon knows ``peer`` to hold everything of the folder (100 %, nothing needed)."""
        completion = self.rest("GET", f"/rest/db/completion?folder={FOLDER_ID}&device={peer.device_id}")
        return completion["completion"] >= 100 and completion["needItems"] == 0 and completion["needDeletes"] == 0

    def sockets(self) -> list[str]:
        """Each open socket of the daemon's processes as ``proto local -> remote`` (IPv4 shown dotted)."""
        table, found = _socket_table(), []
        for pid in self.alive_pids():
            for fd in Path(f"/proc/{pid}/fd").glob("*"):
                with contextlib.suppress(OSError):
                    target = os.readlink(fd)
                    if target.startswith("socket:["):
                        # Not in the inet tables: a unix or netlink socket, which never leaves the machine.
                        proto, local, remote = table.get(target[8:-1], ("local", "", ""))
                        if proto in ("tcp", "udp"):
                            local, remote = _ipv4(local), _ipv4(remote)
                        found.append(f"{proto} {local} -> {remote}".strip())
        return found

    def alive_pids(self) -> list[int]:
        """The daemon's processes (monitor and worker) still running."""
        return [pid for pid, start in self._pids.items() if _proc_start_time(pid) == start]

    def _remember_pids(self) -> None:
        if self.process is None:
            return
        for pid in [self.process.pid, *_descendants(self.process.pid)]:
            start = _proc_start_time(pid)
            if start is not None:
                self._pids[pid] = start

    def stop(self) -> None:
        """REST shutdown, then SIGTERM and SIGKILL by process id after bounded waits; never leaves one running."""
        if self.process is None:
            return
        self._remember_pids()
        if self.process.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                self.rest("POST", "/rest/system/shutdown", timeout=2.0)
        for sig, wait in ((None, STOP_TIMEOUT), (signal.SIGTERM, KILL_TIMEOUT), (signal.SIGKILL, KILL_TIMEOUT)):
            for pid in self.alive_pids() if sig is not None else ():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sig)
            if _wait_until(lambda: self.process.poll() is not None and not self.alive_pids(), wait):
                break
        if self in _RUNNING:
            _RUNNING.remove(self)
        if self.alive_pids():
            raise SyncthingError(f"syncthing {self.name} did not stop: processes {self.alive_pids()} still run")


def _wait_until(condition: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError, ValueError, KeyError):
            if condition():
                return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL)


def _set(parent: ET.Element, tag: str, value: str) -> None:
    element = parent.find(tag)
    if element is None:
        element = ET.SubElement(parent, tag)
    element.text = value


def _patch_config(daemon: Daemon, peer: Daemon, closed_port: int) -> None:
    """Keep every byte on 127.0.0.1, then add the peer and the shared folder (before the first serve)."""
    path = daemon.home / "config.xml"
    tree = ET.parse(path)
    root = tree.getroot()
    me = root.find("device")
    me.set("name", daemon.name)
    _set(root.find("gui"), "address", f"127.0.0.1:{daemon.gui_port}")
    options = root.find("options")
    nowhere = f"http://127.0.0.1:{closed_port}/"
    for key, value in {
        "listenAddress": f"tcp://127.0.0.1:{daemon.listen_port}",
        "globalAnnounceEnabled": "false",
        "localAnnounceEnabled": "false",
        "relaysEnabled": "false",
        "natEnabled": "false",
        "crashReportingEnabled": "false",
        "startBrowser": "false",
        "announceLANAddresses": "false",
        "urAccepted": "-1",
        "autoUpgradeIntervalH": "0",
        "stunKeepaliveStartS": "0",
        # Safety net should any of the above be ignored: each outside address is a closed loopback port.
        "urURL": nowhere + "newdata",
        "releasesURL": nowhere + "meta.json",
        "crashReportingURL": nowhere + "newcrash",
        "globalAnnounceServer": f"https://127.0.0.1:{closed_port}/",
        "stunServer": f"127.0.0.1:{closed_port}",
    }.items():
        _set(options, key, value)
    defaults = root.find("defaults")
    peer_device = copy.deepcopy(defaults.find("device"))
    peer_device.set("id", peer.device_id)
    peer_device.set("name", peer.name)
    _set(peer_device, "address", f"tcp://127.0.0.1:{peer.listen_port}")
    root.insert(list(root).index(me) + 1, peer_device)
    folder = copy.deepcopy(defaults.find("folder"))
    folder.attrib.update(id=FOLDER_ID, label="Limbic", path=str(daemon.folder), type="sendreceive",
                         rescanIntervalS="10", fsWatcherEnabled="true", fsWatcherDelayS="1")
    for old in folder.findall("device"):
        folder.remove(old)
    for device_id in (daemon.device_id, peer.device_id):
        ET.SubElement(folder, "device", id=device_id, introducedBy="")
    root.insert(0, folder)
    tree.write(path, encoding="unicode")


def _environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(HOME=str(home), STNODEFAULTFOLDER="1", STNOUPGRADE="1")
    return env


@dataclass
class SyncthingPair:
    """Two connected daemons A and B sharing ``FOLDER_ID`` between ``a.folder`` and ``b.folder``."""

    a: Daemon
    b: Daemon

    def logs(self) -> str:
        """Both daemons' log tails, for failure messages."""
        return "".join(f"\n--- syncthing {d.name} ({d.log_path}) ---\n{d.log_tail()}" for d in (self.a, self.b))

    def fail(self, message: str) -> SyncthingError:
        """An error whose message ends with both logs."""
        return SyncthingError(message + self.logs())

    def other(self, side: Daemon) -> Daemon:
        """The daemon that is not ``side``."""
        return self.b if side is self.a else self.a

    def states(self) -> str:
        """Each side's folder state and connection, for failure messages."""
        parts = []
        for d in (self.a, self.b):
            try:
                parts.append(f"{d.name}: folder {d.folder_state()}, connected {d.connected_to(self.other(d))}")
            except (OSError, ValueError, KeyError) as exc:
                parts.append(f"{d.name}: no answer ({exc})")
        return "; ".join(parts)

    def idle(self) -> bool:
        """Connected both ways, the folder idle on both, and each knows the other holds everything."""
        return all(d.connected_to(self.other(d)) and d.folder_state() == "idle" and d.peer_complete(self.other(d))
                   for d in (self.a, self.b))

    def wait_idle(self, timeout: float = 20.0) -> None:
        """Wait until :meth:`idle` holds, or fail with the states and both logs."""
        if not _wait_until(self.idle, timeout):
            raise self.fail(f"the folder was not idle on both sides within {timeout:.0f} s ({self.states()})")

    def wait_synced(self, relative: str, timeout: float = 20.0, source: Daemon | None = None) -> Path:
        """Wait until ``relative`` exists on the side other than ``source`` (A by default) with the same bytes
        as on ``source`` and the folder is idle on both; the path on the receiving side."""
        source = source or self.a
        target = self.other(source).folder / relative

        def arrived() -> bool:
            return target.is_file() and target.read_bytes() == (source.folder / relative).read_bytes()

        if not _wait_until(lambda: arrived() and self.idle(), timeout):
            raise self.fail(f"{relative} did not reach {self.other(source).name} intact within {timeout:.0f} s "
                            f"({self.states()}; there: {target.exists()})")
        return target

    def wait_absent(self, relative: str, side: Daemon, timeout: float = 20.0) -> None:
        """Wait until ``relative`` is gone from ``side`` and the folder is idle on both."""
        if not _wait_until(lambda: not (side.folder / relative).exists() and self.idle(), timeout):
            raise self.fail(f"{relative} was still on {side.name} after {timeout:.0f} s ({self.states()})")

    def wait_same(self, timeout: float = 20.0) -> dict[str, str]:
        """Wait until both folders hold the same files with the same bytes and are idle; their digests."""
        if not _wait_until(lambda: self.idle() and tree_digest(self.a.folder) == tree_digest(self.b.folder), timeout):
            diff = set(tree_digest(self.a.folder).items()) ^ set(tree_digest(self.b.folder).items())
            raise self.fail(f"the folders did not converge within {timeout:.0f} s ({self.states()}; "
                            f"differing: {sorted(diff)[:10]})")
        return tree_digest(self.a.folder)


def tree_digest(folder: Path) -> dict[str, str]:
    """Each file's relative path and SHA-256, leaving out Syncthing's own marker and temporary files."""
    digests = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if relative.parts[0] in SYNCTHING_NAMES or path.name.startswith(".syncthing.") or not path.is_file():
            continue
        with contextlib.suppress(OSError):  # a file renamed or removed while we walk
            digests[str(relative)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests


def _generate(binary: str, daemon: Daemon) -> None:
    daemon.home.mkdir(parents=True)
    daemon.folder.mkdir(parents=True, exist_ok=True)
    (daemon.folder / ".stfolder").mkdir(exist_ok=True)
    result = subprocess.run(
        [binary, "generate", "--home", str(daemon.home), "--no-default-folder", "--skip-port-probing"],
        env=_environment(daemon.home), capture_output=True, text=True, timeout=60,
    )
    if result.returncode != 0 or not (daemon.home / "config.xml").is_file():
        raise SyncthingError(f"syncthing generate failed for {daemon.name}: {result.stdout}{result.stderr}")
    # The first <device> of a generated config is the daemon itself; the REST key is gui/apikey.
    root = ET.parse(daemon.home / "config.xml").getroot()
    daemon.device_id, daemon.api_key = root.find("device").get("id"), root.findtext("gui/apikey")


def _serve(binary: str, daemon: Daemon) -> None:
    with open(daemon.log_path, "ab") as log:
        daemon.process = subprocess.Popen(
            [binary, "serve", "--home", str(daemon.home), "--no-browser", "--no-restart", "--no-upgrade"],
            env=_environment(daemon.home), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    _RUNNING.append(daemon)


def _wait_ping(pair: SyncthingPair, daemon: Daemon) -> None:
    def up() -> bool:
        if daemon.process.poll() is not None:
            raise pair.fail(f"syncthing {daemon.name} exited with code {daemon.process.returncode} at start")
        return daemon.answers()

    if not _wait_until(up, PING_TIMEOUT):
        raise pair.fail(f"syncthing {daemon.name} did not answer /rest/system/ping within {PING_TIMEOUT:.0f} s")
    daemon._remember_pids()


@contextlib.contextmanager
def syncthing_pair(base: Path) -> Iterator[SyncthingPair]:
    """Two daemons under ``base`` (homes ``base/A/home``, ``base/B/home``), connected and idle on one folder
    shared between ``base/A/folder`` and ``base/B/folder``; both stopped on leaving, whatever happened inside."""
    binary = syncthing_binary()
    closed = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # Bound but never listening: a connection to this port is refused, and no one else can take it meanwhile.
    closed.bind(("127.0.0.1", 0))
    ports: list[int] = []
    while len(ports) < 4:
        if (port := free_port()) not in ports and port != closed.getsockname()[1]:
            ports.append(port)
    gui_a, listen_a, gui_b, listen_b = ports
    pair = SyncthingPair(Daemon("A", base / "A" / "home", base / "A" / "folder", gui_a, listen_a),
                         Daemon("B", base / "B" / "home", base / "B" / "folder", gui_b, listen_b))
    try:
        for daemon in (pair.a, pair.b):
            _generate(binary, daemon)
        _patch_config(pair.a, pair.b, closed.getsockname()[1])
        _patch_config(pair.b, pair.a, closed.getsockname()[1])
        _serve(binary, pair.a)
        _wait_ping(pair, pair.a)
        _serve(binary, pair.b)
        _wait_ping(pair, pair.b)
        if not _wait_until(pair.idle, READY_TIMEOUT):
            raise pair.fail(f"the two daemons were not connected with the folder idle within "
                            f"{READY_TIMEOUT:.0f} s ({pair.states()})")
        yield pair
    finally:
        errors = []
        for daemon in (pair.b, pair.a):
            try:
                daemon.stop()
            except SyncthingError as exc:
                errors.append(str(exc))
        closed.close()
        if errors:
            raise SyncthingError("; ".join(errors))


@atexit.register
def _stop_leftovers() -> None:
    # A run interrupted between start and the context's exit still stops what it started.
    for daemon in list(_RUNNING):
        with contextlib.suppress(Exception):
            daemon.stop()

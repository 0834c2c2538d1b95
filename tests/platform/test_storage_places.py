"""A live graph in a cloud-synced folder or on a network file system is warned about; a Microsoft Store client's
redirected AppData is refused by `limbic mcp` with the fix."""

from __future__ import annotations

import logging
import sys

import pytest

from limbic import cli, storage_places
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service.catalog import read_catalog

CLOUD = [
    ("Users/ada/OneDrive/Notes/limbic.db", "OneDrive"),
    ("Users/ada/OneDrive - Contoso/limbic.db", "OneDrive"),
    ("Users/ada/Library/Mobile Documents/com~apple~CloudDocs/limbic.db", "iCloud Drive"),
    ("Users/ada/iCloudDrive/limbic.db", "iCloud Drive"),
    ("home/ada/Dropbox/limbic.db", "Dropbox"),
    ("Users/ada/Dropbox (Personal)/limbic.db", "Dropbox"),
    ("Users/ada/Library/CloudStorage/GoogleDrive-ada@example.com/My Drive/limbic.db", "Google Drive"),
    ("Users/ada/Library/CloudStorage/Box-Box/limbic.db", "Box"),
]


@pytest.mark.parametrize("where, client", CLOUD)
def test_a_cloud_clients_folder_is_named(tmp_path, where, client):
    assert storage_places.cloud_folder(tmp_path / where) == client
    assert client in storage_places.place_warning(tmp_path / where)


@pytest.mark.parametrize("where", ["home/ada/Documents/limbic.db", "home/ada/dropbox-notes.txt/limbic.db",
                                   "home/ada/Boxes/limbic.db", "home/ada/OneDrive.db"])
def test_an_ordinary_folder_is_not(tmp_path, where):
    assert storage_places.cloud_folder(tmp_path / where) is None


MOUNTS = """\
22 27 0:21 / /proc rw,relatime - proc proc rw
27 1 259:2 / / rw,relatime - ext4 /dev/nvme0n1p2 rw
90 27 0:50 / /mnt/share rw,relatime - cifs //nas/share rw,vers=3.1.1
91 90 0:51 / /mnt/share/local\\040disk rw,relatime - ext4 /dev/sdb1 rw
92 27 0:52 / /home/ada/remote rw,nosuid - fuse.sshfs ada@box:/home rw
93 27 0:53 / /srv/nfs rw - nfs4 server:/export rw
"""


@pytest.fixture
def mounts(tmp_path, monkeypatch):
    info = tmp_path / "mountinfo"
    info.write_text(MOUNTS, encoding="utf-8")
    monkeypatch.setattr(storage_places, "MOUNTINFO", str(info))
    monkeypatch.setattr(sys, "platform", "linux")


@pytest.mark.parametrize("path, kind", [("/mnt/share/g.db", "cifs"), ("/mnt/share/local disk/g.db", None),
                                        ("/home/ada/remote/g.db", "fuse.sshfs"), ("/srv/nfs/a/b/g.db", "nfs4"),
                                        ("/home/ada/g.db", None), ("/mnt/shared/g.db", None)])
def test_a_network_mount_is_known_by_its_type(mounts, path, kind):
    assert storage_places.network_file_system(path) == kind
    assert (storage_places.place_warning(path) is not None) == (kind is not None)


def test_a_windows_share_is_a_network_file_system(monkeypatch):
    monkeypatch.setattr(sys, "platform", "win32")
    assert storage_places.network_file_system("\\\\nas\\share\\limbic.db") == "a network share"
    assert "network file system (a network share)" in storage_places.place_warning("//nas/share/limbic.db")


def test_a_drive_letter_mapped_to_a_share_is_a_network_file_system(monkeypatch):
    import ctypes
    from types import SimpleNamespace

    kinds = {"Z:\\": 4, "C:\\": 3}  # DRIVE_REMOTE, DRIVE_FIXED
    kernel32 = SimpleNamespace(GetDriveTypeW=lambda root: kinds.get(root, 0))
    monkeypatch.setattr(ctypes, "windll", SimpleNamespace(kernel32=kernel32), raising=False)
    monkeypatch.setattr(sys, "platform", "win32")
    assert storage_places.network_file_system("Z:\\Graphs\\limbic.db") == "a network share"
    assert storage_places.network_file_system("C:\\Users\\ada\\limbic.db") is None


def test_the_window_is_told_through_the_catalog(tmp_path):
    path = tmp_path / "Dropbox" / "limbic.db"
    path.parent.mkdir()
    g = Graph(Database(path))
    try:
        assert "Dropbox" in read_catalog(g).place_note
    finally:
        g.db.close()
    g = Graph(Database(tmp_path / "plain.db"))
    try:
        assert read_catalog(g).place_note is None
    finally:
        g.db.close()


def test_the_cli_warns_on_standard_error(tmp_path, capsys):
    path = tmp_path / "OneDrive" / "limbic.db"
    path.parent.mkdir()
    Graph(Database(path)).db.close()
    assert cli.main(["--db", str(path), "info"]) == 0
    err = capsys.readouterr().err
    assert "warning:" in err and "OneDrive" in err


# -- a Microsoft Store client (MSIX) -------------------------------------------------------------------------


@pytest.fixture
def store_app(tmp_path, monkeypatch):
    """This process runs inside a Microsoft Store app's package, as Claude Desktop's servers do."""
    home = tmp_path / "Users" / "ada"
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.setenv("APPDATA", str(home / "AppData" / "Roaming"))
    monkeypatch.setenv("LOCALAPPDATA", str(home / "AppData" / "Local"))
    monkeypatch.setattr(storage_places, "_package_name", lambda: "Claude_0.12.0.0_x64__pzs8sxrjxfjjc")
    return home


def test_outside_a_package_nothing_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "AppData" / "Local"))
    monkeypatch.setattr(storage_places, "_package_name", lambda: None)
    assert storage_places.redirected_graph(tmp_path / "AppData" / "Local" / "Limbic" / "limbic.db") is None


def test_an_appdata_that_points_into_a_package_folder_is_a_package(tmp_path, monkeypatch):
    monkeypatch.setattr(storage_places, "_package_name", lambda: None)
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "AppData" / "Local" / "Packages" / "Claude_pzs8sxrjxfjjc"
                                           / "LocalCache" / "Local"))
    assert storage_places.packaged_app() == "Claude_pzs8sxrjxfjjc"


def test_limbic_mcp_in_a_store_app_refuses_a_graph_under_appdata_and_names_the_fix(store_app, capsys, monkeypatch):
    graph = store_app / "AppData" / "Local" / "Limbic" / "limbic.db"
    monkeypatch.setenv("LIMBIC_DB", str(graph))  # the default every Limbic program would use
    assert cli.main(["mcp", "--no-model"]) == 1
    err = capsys.readouterr().err
    assert "Microsoft Store app Claude" in err and "--db" in err and "LIMBIC_DB" in err
    assert not graph.exists() and not graph.parent.exists()  # nothing was written into the private copy


def test_in_a_store_app_a_graph_outside_appdata_is_served(store_app):
    assert storage_places.redirected_graph(store_app / "Documents" / "Limbic" / "limbic.db") is None


def test_limbic_mcp_logs_the_cloud_warning(tmp_path, monkeypatch, caplog):
    path = tmp_path / "Google Drive" / "limbic.db"
    path.parent.mkdir()
    served = []
    monkeypatch.setattr("limbic.mcp.server.serve", lambda p, *a, **k: served.append(p) or 0)
    with caplog.at_level(logging.WARNING, logger="limbic"):
        assert cli.main(["mcp", "--db", str(path), "--no-model"]) == 0
    assert served == [path] and "Google Drive" in caplog.text


def test_a_server_in_a_store_app_leaves_sync_to_the_app_while_its_settings_are_private(store_app, tmp_path,
                                                                                     monkeypatch):
    from limbic.engine.graph.graph import Graph as G
    from limbic.mcp.sync import BackgroundSync
    from limbic.service import sync as service_sync

    monkeypatch.setenv("LIMBIC_HOME", str(store_app / "AppData" / "Roaming" / "Limbic"))  # the default, there
    folder = tmp_path / "Sync"
    folder.mkdir()
    graph = store_app / "Documents" / "limbic.db"
    graph.parent.mkdir(parents=True)
    G(Database(graph)).db.close()
    service_sync.exchange(graph, folder)
    started = []
    monkeypatch.setattr("limbic.mcp.sync.subprocess.run", lambda *a, **k: started.append(a))
    background = BackgroundSync(graph)
    background.run_once()
    assert started == [] and "LIMBIC_HOME" in background.last_error

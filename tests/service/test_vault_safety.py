"""A vault from someone else: no symbolic link is followed (each is reported), nothing but regular
files is read, and a note too large to be one is left aside with a sentence."""

from __future__ import annotations

import os

import pytest

from limbic.cli import main
from limbic.service.importers import import_path
from limbic.service.importers.markdown import read_vault
from limbic.service.importers.vault_files import MAX_NOTE_BYTES
from tests.service.graph_state import graph_state


def _texts(graph) -> str:
    return "\n".join(r[0] for r in graph.db.execute("SELECT content FROM observations"))


@pytest.fixture
def vault(tmp_path):
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:SECRET-PASSWORD-LINE\n", encoding="utf-8")
    (tmp_path / "outside" / "note.md").write_text("SECRET-IN-A-FOLDER\n", encoding="utf-8")
    v = tmp_path / "vault"
    (v / "people").mkdir(parents=True)
    (v / "Harbor API.md").write_text("The timetable service.\n", encoding="utf-8")
    (v / "people" / "Ada.md").write_text("Maintains [[Harbor API]].\n", encoding="utf-8")
    (v / "passwd.md").symlink_to(secret)                       # a file outside
    (v / "linked").symlink_to(secret.parent, target_is_directory=True)  # a folder outside
    (v / "same.md").symlink_to(v / "Harbor API.md")            # a file inside
    (v / "people-again").symlink_to(v / "people", target_is_directory=True)  # a folder inside
    (v / "dangling.md").symlink_to(tmp_path / "nothing.md")
    (v / "loop.md").symlink_to(v / "loop.md")
    (v / "image.png").symlink_to(secret)                       # an attachment: never read, not reported
    return v


def test_no_symbolic_link_is_followed_and_each_is_reported(text_graph, vault):
    report = import_path(text_graph, vault)
    texts = _texts(text_graph)
    assert "SECRET" not in texts
    assert sorted(r[0] for r in text_graph.db.execute("SELECT name FROM entities")) == ["Ada", "Harbor API"]
    skipped = dict(s.split(": ", 1) for s in report.skipped)
    assert set(skipped) == {"passwd.md", "linked/", "same.md", "people-again/", "dangling.md", "loop.md"}
    assert skipped["passwd.md"].startswith("a symbolic link to a file outside the imported folder (")
    assert skipped["linked/"].startswith("a symbolic link to a folder outside the imported folder (")
    assert skipped["same.md"] == ("a symbolic link to the file Harbor API.md in this folder, which is read "
                                  "where it is, not through the link")
    assert "the folder people in this folder" in skipped["people-again/"]
    assert skipped["dangling.md"] == "a symbolic link to something that does not exist, not followed"
    assert skipped["loop.md"] == "a symbolic link that loops, not followed"
    assert "6 files skipped" in report.describe()


def test_the_cli_imports_a_hostile_vault_without_the_outside_file(tmp_path, vault, capsys):
    db = tmp_path / "g.db"
    assert main(["--db", str(db), "import", str(vault)]) == 0
    out = capsys.readouterr().out
    assert "\n  skipped passwd.md: a symbolic link to a file outside the imported folder" in out
    assert "\n  skipped loop.md: a symbolic link that loops" in out
    assert main(["--db", str(db), "export"]) == 0
    assert "SECRET" not in capsys.readouterr().out


def test_a_note_replaced_by_a_link_after_listing_is_not_followed(tmp_path, vault, monkeypatch):
    from limbic.service.importers import vault_files

    real_walk = vault_files.walk

    def walk_then_swap(root, *a, **k):
        files, skipped = real_walk(root, *a, **k)
        target = vault / "Harbor API.md"
        target.unlink()
        target.symlink_to(tmp_path / "outside" / "secret.txt")  # swapped between listing and reading
        return files, skipped

    monkeypatch.setattr(vault_files, "walk", walk_then_swap)
    v = read_vault(vault)
    assert "SECRET" not in "\n".join(o for n in v.notes for o in n.observations)
    assert any(s.startswith("Harbor API.md: it became a symbolic link") for s in v.skipped)


@pytest.mark.posix_only(reason="named pipes in the file system (os.mkfifo) are POSIX")
def test_a_named_pipe_is_not_read(text_graph, tmp_path):
    v = tmp_path / "v"
    v.mkdir()
    (v / "A.md").write_text("a note\n", encoding="utf-8")
    os.mkfifo(v / "pipe.md")  # reading it would wait for ever
    report = import_path(text_graph, v)
    assert "pipe.md: not a regular file (a pipe, socket or device), not read" in report.skipped


def test_csv_files_found_beside_or_in_a_folder_are_not_followed(text_graph, tmp_path, vault):
    folder = tmp_path / "csv"
    folder.mkdir()
    (folder / "entities.csv").write_text("name,type\nAna,Person\n", encoding="utf-8")
    evil = tmp_path / "outside" / "relations.csv"
    evil.write_text("from,to\nAna,SECRET\n", encoding="utf-8")
    (folder / "relations.csv").symlink_to(evil)
    report = import_path(text_graph, folder / "entities.csv")
    assert report.missing_links == {} and "relations.csv: a symbolic link to a file outside" in report.skipped[0]
    report = import_path(text_graph, folder)
    assert report.skipped and "outside the imported folder" in report.skipped[0]


def test_a_note_over_the_limit_is_left_aside_with_a_sentence(text_graph, tmp_path):
    v = tmp_path / "v"
    v.mkdir()
    (v / "Small.md").write_text("See [[Huge]].\n", encoding="utf-8")
    para = "See [[Note {i}]] for the details of this paragraph, which has words enough in it to be long.\n\n"
    with open(v / "Huge.md", "w", encoding="utf-8") as fh:
        i = 0
        while fh.tell() <= MAX_NOTE_BYTES:
            fh.write(para.format(i=i))
            i += 1
    report = import_path(text_graph, v)
    (line,) = report.skipped
    assert line.startswith("Huge.md: too large to import as one note (") and "the limit is 4.2 MB" in line
    assert [r[0] for r in text_graph.db.execute("SELECT name FROM entities")] == ["Small"]


def test_a_note_of_many_paragraphs_under_the_limit_imports_every_one_once(text_graph, tmp_path):
    v = tmp_path / "v"
    v.mkdir()
    paras = [f"- item {i} links [[Target {i % 50}]]\n\n  continued {i}" for i in range(6000)]
    (v / "Long.md").write_text("\n\n".join(paras) + "\n", encoding="utf-8")
    import_path(text_graph, v)
    before = graph_state(text_graph)
    assert text_graph.db.scalar("SELECT count(*) FROM observations") == 6000
    import_path(text_graph, v)  # a second import adds nothing
    assert graph_state(text_graph) == before


def test_a_folder_swapped_for_a_link_after_listing_is_not_followed(tmp_path, vault, monkeypatch):
    from limbic.service.importers import vault_files

    real_walk = vault_files.walk

    def walk_then_swap(root, *a, **k):
        files, skipped = real_walk(root, *a, **k)
        (vault / "people").rename(tmp_path / "moved")
        (tmp_path / "moved" / "Ada.md").write_text("SECRET-AFTER-SWAP\n", encoding="utf-8")
        (vault / "people").symlink_to(tmp_path / "moved", target_is_directory=True)
        return files, skipped

    monkeypatch.setattr(vault_files, "walk", walk_then_swap)
    v = read_vault(vault)
    assert "SECRET" not in "\n".join(o for n in v.notes for o in n.observations)
    assert any(s.startswith("people/Ada.md: a folder on its way became a symbolic link") for s in v.skipped)


def test_a_link_to_the_folder_itself_is_a_loop(text_graph, tmp_path):
    v = tmp_path / "v"
    v.mkdir()
    (v / "A.md").write_text("a\n", encoding="utf-8")
    (v / "again").symlink_to(v, target_is_directory=True)
    report = import_path(text_graph, v)
    assert report.skipped == ["again/: a symbolic link to the imported folder itself (a loop), not followed"]

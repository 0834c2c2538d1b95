"""A vault's embedded attachments and #tags are kept as what they are, not as raw observation text."""

from __future__ import annotations

from limbic.service.importers.markdown import read_note


def _note(tmp_path, text: str, name: str = "Dune.md"):
    (tmp_path / name).write_text(text, encoding="utf-8")
    return read_note(tmp_path, tmp_path.joinpath(name).relative_to(tmp_path), text)


def test_an_embedded_picture_is_listed_as_an_attachment_not_kept_as_text(tmp_path):
    note = _note(tmp_path, "A novel by Frank Herbert.\n\n![[diagram.png]]\n\nSee the map ![[maps/arrakis.jpg|300]] here.\n")
    assert "![[diagram.png]]" not in "\n".join(note.observations)
    assert "See the map here." in note.observations
    assert note.observations[-1] == "attachments: diagram.png, maps/arrakis.jpg"


def test_tags_become_the_type_and_a_tags_line_not_a_raw_observation(tmp_path):
    note = _note(tmp_path, "Read in 2024.\n\n#book #scifi #favourite\n")
    assert note.entity_type == "book"
    assert "#book #scifi #favourite" not in note.observations
    assert note.observations == ["Read in 2024.", "tags: #scifi, #favourite"]


def test_front_matter_tags_beyond_the_type_are_kept(tmp_path):
    note = _note(tmp_path, "---\ntags: [person, climber]\n---\nLikes granite.\n", "Ana.md")
    assert note.entity_type == "person"
    assert note.observations == ["Likes granite.", "tags: #climber"]

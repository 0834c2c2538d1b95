"""Build the extra evaluation collections (BEIR layout) from public data files, checked by sha256.

    python scripts/build_eval_sets.py RAW_FOLDER OUT_FOLDER

RAW_FOLDER holds the source files under the names below (where each comes from: docs/eval.md);
OUT_FOLDER receives one BEIR folder per collection (corpus.jsonl, queries.jsonl, qrels/test.tsv),
ready for `limbic eval`. A file whose checksum differs is refused: the figures in docs/eval.md
were measured on exactly these bytes.

- friendsqa-chat: the test scenes of FriendsQA (TV dialogue, many speakers): one document per
  turn ("Speaker: words"), one query per question; relevant are the turns holding an answer.
  Questions about "the scene" itself are left out (they only make sense inside one scene).
- friendsqa-dated: the development scenes of FriendsQA as dated sessions of a chat memory: scene i
  happened on 3 January 2022 plus 5·i days, each turn is named by its scene, turn and that day, and
  each question names its scene's day or month ("... on 16 June 2023?", "... on June 16, 2023?",
  "... in June 2023?", in turn), so the right answer is the turn of that day, not a like one of another.
- xquad-es / xquad-en: XQuAD's 240 Wikipedia paragraphs in Spanish / English, one query per
  question (1,190), relevant is the paragraph it was asked about.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from datetime import date, timedelta
from pathlib import Path

SOURCES = {
    "friendsqa_tst.json": "a98f24d4b04ac9f8d9468088febf304bd90eada134537277c1a425e31c0372bc",
    "friendsqa_dev.json": "3a85d3fcb175589ffd050fb4bf431da77a6e12589c8ec03f1d54060ce33ec703",
    "xquad.es.json": "dcbae93ec3a9f4b9e78fd834a171d6f96c1a875e10e15b7530b7e4ef4971e37e",
    "xquad.en.json": "e4c57d1c9143aaa1c5d265ba5987a65f4e69528d2a98f29d6e75019b10344f29",
}
# FriendsQA's text is tokenised ("you 're", "it ."): joined back so it reads as people write.
_DETOK = [(re.compile(r" (['’](?:s|re|ve|ll|d|m|t)\b)"), r"\1"), (re.compile(r" n't\b"), "n't"),
          (re.compile(r" ([,.!?;:)\]])"), r"\1"), (re.compile(r"([(\[]) "), r"\1"), (re.compile(r"\bgon na\b"), "gonna"),
          (re.compile(r"\bwan na\b"), "wanna")]


def _read(raw: Path, name: str) -> dict:
    data = (raw / name).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != SOURCES[name]:
        raise SystemExit(f"{name}: sha256 {digest} is not the expected {SOURCES[name]}")
    return json.loads(data.decode("utf-8-sig"))


def _detok(text: str) -> str:
    for pattern, repl in _DETOK:
        text = pattern.sub(repl, text)
    return " ".join(text.split())


def _write(out: Path, docs: list[dict], queries: list[dict], qrels: list[tuple[str, str, int]]) -> None:
    (out / "qrels").mkdir(parents=True, exist_ok=True)
    with open(out / "corpus.jsonl", "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(d, ensure_ascii=False) + "\n" for d in docs)
    with open(out / "queries.jsonl", "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(q, ensure_ascii=False) + "\n" for q in queries)
    with open(out / "qrels" / "test.tsv", "w", encoding="utf-8") as fh:
        fh.write("query-id\tcorpus-id\tscore\n")
        fh.writelines(f"{q}\t{d}\t{s}\n" for q, d, s in qrels)
    print(f"{out.name}: {len(docs)} documents, {len(queries)} queries, {len(qrels)} judgements")


def friendsqa(raw: Path, out: Path) -> None:
    """One document per turn of the test scenes; questions about the scene itself left out."""
    docs, queries, qrels = [], [], []
    for scene in _read(raw, "friendsqa_tst.json")["data"]:
        for p, para in enumerate(scene["paragraphs"]):
            key = f"{scene['title']}_{p}"
            for u in para["utterances:"]:
                speakers = [s for s in u["speakers"] if s != "#NOTE#"]
                text = _detok(u["utterance"])
                docs.append({"_id": f"{key}_{u['uid']}", "title": f"{key}_{u['uid']}",
                             "text": f"{', '.join(speakers)}: {text}" if speakers else text})
            for qa in para["qas"]:
                question = _detok(qa["question"])
                if re.search(r"\bscenes?\b", question, re.IGNORECASE):
                    continue
                turns = sorted({a["utterance_id"] for a in qa["answers"]})
                qid = f"{key}_{qa['id']}"
                queries.append({"_id": qid, "text": question})
                qrels += [(qid, f"{key}_{t}", 1) for t in turns]
    _write(out, docs, queries, qrels)


FIRST_SESSION = date(2022, 1, 3)
SESSION_GAP_DAYS = 5  # about six sessions a month: a month narrows the turns to a few scenes, a day to one
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def _when(day: date, n: int) -> str:
    """The n-th question's way of naming its scene's time: a day two ways, or its month."""
    month = _MONTHS[day.month - 1]
    return (f"on {day.day} {month} {day.year}", f"on {month} {day.day}, {day.year}", f"in {month} {day.year}")[n % 3]


def friendsqa_dated(raw: Path, out: Path) -> None:
    """FriendsQA's development scenes as dated sessions; each question names its session's day or month."""
    docs, queries, qrels = [], [], []
    n = 0
    for i, scene in enumerate(_read(raw, "friendsqa_dev.json")["data"]):
        day = FIRST_SESSION + timedelta(days=SESSION_GAP_DAYS * i)
        for p, para in enumerate(scene["paragraphs"]):
            key = f"{scene['title']}_{p}"
            for u in para["utterances:"]:
                speakers = [s for s in u["speakers"] if s != "#NOTE#"]
                text = _detok(u["utterance"])
                docs.append({"_id": f"{key}_{u['uid']}", "title": f"{key}_{u['uid']} ({day.day} {_MONTHS[day.month - 1]} {day.year})",
                             "text": f"{', '.join(speakers)}: {text}" if speakers else text})
            for qa in para["qas"]:
                question = _detok(qa["question"])
                if re.search(r"\bscenes?\b", question, re.IGNORECASE):
                    continue
                turns = sorted({a["utterance_id"] for a in qa["answers"]})
                qid = f"{key}_{qa['id']}"
                queries.append({"_id": qid, "text": f"{question.rstrip(' ?.')} {_when(day, n)}?"})
                n += 1
                qrels += [(qid, f"{key}_{t}", 1) for t in turns]
    _write(out, docs, queries, qrels)


def xquad(raw: Path, out: Path, lang: str) -> None:
    """XQuAD's paragraphs as documents (named by number: the article titles are English), its questions as queries."""
    docs, queries, qrels = [], [], []
    n = 0
    for article in _read(raw, f"xquad.{lang}.json")["data"]:
        for para in article["paragraphs"]:
            n += 1
            doc_id = f"p{n:03d}"
            docs.append({"_id": doc_id, "title": doc_id, "text": " ".join(para["context"].replace("\ufeff", "").split())})
            for qa in para["qas"]:
                queries.append({"_id": qa["id"], "text": qa["question"].strip()})
                qrels.append((qa["id"], doc_id, 1))
    _write(out, docs, queries, qrels)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    raw, out = Path(argv[0]), Path(argv[1])
    friendsqa(raw, out / "friendsqa-chat")
    friendsqa_dated(raw, out / "friendsqa-dated")
    xquad(raw, out / "xquad-es", "es")
    xquad(raw, out / "xquad-en", "en")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

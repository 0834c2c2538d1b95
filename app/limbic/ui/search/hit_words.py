"""A hit's numbers and what found it, in words: its share of the best hit, its time match, its chip, how much a
bar holds."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from limbic.service.types import SearchResult
from limbic.ui.common.i18n import translate

BRANCH_LABELS = {"text": QT_TRANSLATE_NOOP("Results", "text"), "meaning": QT_TRANSLATE_NOOP("Results", "meaning"),
                 "both": QT_TRANSLATE_NOOP("Results", "text + meaning")}
EXACT_LABEL = QT_TRANSLATE_NOOP("Results", "exact name")


def share_text(score: float, best: float) -> str:
    """A hit's score as a share of the best hit's: "100%", "24%", "<1%" (what a person can compare at a glance)."""
    if best <= 0:
        return "—"
    pct = 100.0 * score / best
    return "<1%" if 0 < pct < 1 else f"{pct:.0f}%"


def time_text(r: SearchResult, label: str | None) -> str | None:
    """Whether the hit happened in the time the query names: "June 2023 ✓" or "June 2023 ✗" (None: it names none)."""
    if label is None or r.time_match is None:
        return None
    return f"{label} {'✓' if r.time_match else '✗'}"


def numbers_text(r: SearchResult, fits, best: float = 0.0, time_label: str | None = None) -> str:
    """The hit's score as a share of the best hit's, and its time match, in the longest form that ``fits`` the row."""
    share = share_text(r.limbic_score, best or r.limbic_score)
    note = time_text(r, time_label)
    forms = (translate("Results", "{share} of the best hit").format(share=share), share)
    if note is not None:  # the match is what the person asked for: it stays longest
        forms = (translate("Results", "{note} · {share} of the best hit").format(note=note, share=share), f"{note} · {share}", note)
    return next((form for form in forms if fits(form)), forms[-1])


def branch_label(r: SearchResult) -> str:
    """What found the hit, as its chip says: an exact name is "exact name", never "meaning"."""
    return translate("Results", EXACT_LABEL if r.exact else BRANCH_LABELS.get(r.branch, r.branch))


def amount_words(value: float, scale: float | None) -> str:
    """How much a bar holds, in words: "a lot", "some", "a little" or "no" (the bar's own fill, read aloud)."""
    frac = value / (1.0 + value) if scale is None else value / scale
    if frac >= 0.66:
        return translate("Results", "a lot")
    if frac >= 0.33:
        return translate("Results", "some")
    return translate("Results", "a little") if frac > 0.05 else translate("Results", "no")

"""The result list: a list model with named roles and a delegate that draws each hit's score breakdown."""

from __future__ import annotations

import html
import logging
from dataclasses import dataclass
from enum import IntEnum

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import QApplication, QListView, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from limbic.service.lookup import match_spans, matched_terms
from limbic.service.names import bidi_isolated
from limbic.service.types import SearchResponse, SearchResult
from limbic.ui.common.type_colours import type_colour
from limbic.ui.common.i18n import translate
from limbic.ui.search.hit_words import (  # noqa: F401 - their home was here
    BRANCH_LABELS, EXACT_LABEL, amount_words, branch_label, numbers_text, share_text, time_text,
)
from PySide6.QtCore import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)

SNIPPET_CHARS = 180
MODE_LABELS = {"hybrid": QT_TRANSLATE_NOOP("Results", "Hybrid"), "semantic": QT_TRANSLATE_NOOP("Results", "Semantic"), "fts": QT_TRANSLATE_NOOP("Results", "Full text")}
# Importance tops out near (1 + β_deg)(1 + α_cons) ≈ 1.38 with the default constants.
IMPORTANCE_SCALE = 1.4


class Roles(IntEnum):
    """Named data roles of the result model (the delegate and tests read these)."""

    EntityId = Qt.ItemDataRole.UserRole + 1
    Name = Qt.ItemDataRole.UserRole + 2
    EntityType = Qt.ItemDataRole.UserRole + 3
    Snippet = Qt.ItemDataRole.UserRole + 4
    Terms = Qt.ItemDataRole.UserRole + 5
    BaseRelevance = Qt.ItemDataRole.UserRole + 6
    Importance = Qt.ItemDataRole.UserRole + 7
    Temporal = Qt.ItemDataRole.UserRole + 8
    Cooc = Qt.ItemDataRole.UserRole + 9
    Distance = Qt.ItemDataRole.UserRole + 10
    Rrf = Qt.ItemDataRole.UserRole + 11
    Score = Qt.ItemDataRole.UserRole + 12
    Branch = Qt.ItemDataRole.UserRole + 13
    Result = Qt.ItemDataRole.UserRole + 14


def best_observation(observations: list[str], terms: list[str]) -> str:
    """The observation that mentions most query terms (the first one when none does)."""
    if not observations:
        return ""
    best, best_hits = observations[0], 0
    for obs in observations:
        hits = len(matched_terms(obs, terms))
        if hits > best_hits:
            best, best_hits = obs, hits
    return best


def snippet(text: str, terms: list[str], limit: int = SNIPPET_CHARS) -> str:
    """A window of the text around its first matched term, at most ``limit`` characters."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return bidi_isolated(text)
    spans = match_spans(text, terms)
    start = max(0, (spans[0][0] if spans else 0) - limit // 3)
    cut = text[start : start + limit]
    # Isolated: a bidi control an observation holds (U+202E…) reorders nothing beyond its own snippet.
    return bidi_isolated(("…" if start else "") + cut + ("…" if start + limit < len(text) else ""))


def highlight_html(text: str, terms: list[str], color: str) -> str:
    """HTML of the text with the matched terms (ignoring case and accents) in bold and the highlight colour."""
    out, pos = [], 0
    for a, b in match_spans(text, terms):
        out.append(html.escape(text[pos:a]))
        out.append(f'<span style="background-color:{color}; font-weight:600">{html.escape(text[a:b])}</span>')
        pos = b
    out.append(html.escape(text[pos:]))
    return "".join(out)


TAIL_SHARE = 0.03  # hits scoring under this share of the best one are left out


class ResultModel(QAbstractListModel):
    """The hits of the latest search, best first."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._results: list[SearchResult] = []
        self._snippets: list[str] = []
        self.terms: list[str] = []
        self.mode = ""
        self.query = ""
        self.empty_text = ""  # what the empty list says ("No good match for …")
        self.best = 0.0  # the best hit's score: each row shows its own as a share of it
        self.cut = 0  # hits left out for scoring under TAIL_SHARE of the best one
        self.time_label: str | None = None  # the time the query names ("June 2023"), if any

    def set_response(self, response: SearchResponse) -> None:
        """Replace the list with a new search's hits."""
        self.beginResetModel()
        best = max((r.limbic_score for r in response.results), default=0.0)
        # A long tail of "<1% of the best hit" rows is noise that buries the count of real hits.
        self._results = [r for r in response.results if best <= 0 or r.limbic_score >= best * TAIL_SHARE]
        self.cut = len(response.results) - len(self._results)
        self.terms = list(response.terms)
        self._snippets = [snippet(best_observation(r.observations, self.terms), self.terms) for r in self._results]
        self.mode = response.mode
        self.query = response.query
        self.empty_text = response.no_match_sentence if response.no_match else ""
        self.best = max((r.limbic_score for r in self._results), default=0.0)
        self.time_label = response.time_label
        self.endResetModel()

    def clear(self) -> None:
        self.beginResetModel()
        self._results, self._snippets, self.terms, self.query = [], [], [], ""
        self.empty_text, self.time_label, self.cut = "", None, 0
        self.endResetModel()

    def count_text(self) -> str:
        """"12 results", with the weak ones left out said: "12 results · 5 weak matches not shown"."""
        n = len(self._results)
        text = translate("ResultModel", "%n results", "", n)
        cut = self.cut
        if cut:
            text += translate("ResultModel", " · %n weak matches (under {share} of the best) not shown", "",
                              cut).format(share=f"{TAIL_SHARE:.0%}")
        return text

    def result(self, row: int) -> SearchResult | None:
        return self._results[row] if 0 <= row < len(self._results) else None

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008 - Qt API
        return 0 if parent.isValid() else len(self._results)

    def roleNames(self) -> dict[int, bytes]:
        names = super().roleNames()
        for role in Roles:
            names[int(role)] = role.name[0].lower().encode() + role.name[1:].encode()
        return names

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        row = index.row()
        if not index.isValid() or not 0 <= row < len(self._results):
            return None
        r = self._results[row]
        role = int(role)
        getter = _GETTERS.get(role)
        if getter is not None:
            return getter(self, r, row)
        if role == _TOOLTIP:
            return self._tooltip(r)
        if role == _ACCESSIBLE:
            return (translate("ResultModel", "{name}, {entity_type}, {share_text} of the best hit, found by "
                        "{branch_label}").format(name=r.name, entity_type=r.entity_type, share_text=share_text(r.limbic_score, self.best), branch_label=branch_label(r)))
        return None

    def _tooltip(self, r: SearchResult) -> str:
        # In words a person reads: what found it and how much each bar lifted it, no cosine or fusion numbers.
        found = ([translate("ResultModel", "has the name you typed")] if r.exact else []) + ([translate("ResultModel", "matches your words")] if r.fts_rank is not None else []) \
            + ([translate("ResultModel", "close in meaning")] if r.knn_rank is not None else []) \
            + ([translate("ResultModel", "a word you typed, spelt like {words} here").format(
                words=", ".join(f"“{html.escape(w)}”" for w in r.spelt_like))] if r.spelt_like else [])
        lifts = [f"{translate('Results', FACTOR_WORDS[label])}: {amount_words(value, scale)}"
                 for (label, _role, scale, _tip), value in
                 zip(BARS[1:], (r.importance, r.temporal, r.cooc_boost))]
        return (
            translate("ResultModel", "<b>{name}</b> ({entity_type})<br>{share_text} of the best hit. Why it "
                "is here:<br>").format(name=html.escape(r.name), entity_type=html.escape(r.entity_type), share_text=share_text(r.limbic_score, self.best))
            + "<br>".join(f"• {line}" for line in (found or [translate("ResultModel", "found by {branch}").format(
                branch=branch_label(r))]) + lifts)
            + ("<br>" + (translate("ResultModel", "{note}: happened in the time asked about") if r.time_match
                         else translate("ResultModel", "{note}: did not happen in the time asked about")
                         ).format(note=html.escape(note))
               if (note := time_text(r, self.time_label)) else "")
        )


def _blend(top: QColor, bottom: QColor) -> QColor:
    """An opaque colour: ``top`` with its alpha laid over ``bottom`` (rich text wants opaque colours)."""
    a = top.alphaF()
    return QColor.fromRgbF(
        top.redF() * a + bottom.redF() * (1 - a), top.greenF() * a + bottom.greenF() * (1 - a), top.blueF() * a + bottom.blueF() * (1 - a)
    )


_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ACCESSIBLE = int(Qt.ItemDataRole.AccessibleTextRole)
# role -> value; a table rather than a chain of comparisons because views ask for roles very often.
_GETTERS = {
    int(Qt.ItemDataRole.DisplayRole): lambda m, r, row: r.name,
    int(Roles.Name): lambda m, r, row: r.name,
    int(Roles.EntityId): lambda m, r, row: r.entity_id,
    int(Roles.EntityType): lambda m, r, row: r.entity_type,
    int(Roles.Snippet): lambda m, r, row: m._snippets[row],
    int(Roles.Terms): lambda m, r, row: m.terms,
    int(Roles.BaseRelevance): lambda m, r, row: r.base_relevance,
    int(Roles.Importance): lambda m, r, row: r.importance,
    int(Roles.Temporal): lambda m, r, row: r.temporal,
    int(Roles.Cooc): lambda m, r, row: r.cooc_boost,
    int(Roles.Distance): lambda m, r, row: r.distance,
    int(Roles.Rrf): lambda m, r, row: r.rrf_score,
    int(Roles.Score): lambda m, r, row: r.limbic_score,
    int(Roles.Branch): lambda m, r, row: r.branch,
    int(Roles.Result): lambda m, r, row: r,
}

# What each bar means, in the words the tooltip uses.
FACTOR_WORDS = {"match": QT_TRANSLATE_NOOP("Results", "matches what you asked"), "used": QT_TRANSLATE_NOOP("Results", "often used"), "recent": QT_TRANSLATE_NOOP("Results", "recently used"),
                "linked": QT_TRANSLATE_NOOP("Results", "linked with the other hits")}
# Each bar's label is a plain word drawn beside it in a wide row, never an abbreviation.
BARS = (
    ("match", Roles.BaseRelevance, 1.0, QT_TRANSLATE_NOOP("Results", "match: matches your words or is close in meaning")),
    ("used", Roles.Importance, IMPORTANCE_SCALE,
     QT_TRANSLATE_NOOP("Results", "used: often used (opened, related, used on several days)")),
    ("recent", Roles.Temporal, 1.0, QT_TRANSLATE_NOOP("Results", "recent: recently used")),
    ("linked", Roles.Cooc, None, QT_TRANSLATE_NOOP("Results", "linked: linked with the other hits")),
)
# The bars' labels as drawn (the keys above stay the same in every language).
BAR_LABELS = {"match": QT_TRANSLATE_NOOP("Results", "match"), "used": QT_TRANSLATE_NOOP("Results", "used"),
              "recent": QT_TRANSLATE_NOOP("Results", "recent"), "linked": QT_TRANSLATE_NOOP("Results", "linked")}


def bar_label(key: str) -> str:
    """A bar's label in the window's language."""
    return translate("Results", BAR_LABELS.get(key, key))
PAD = 8
BAR_W = 38
BAR_H = 5


# Enum members looked up once: attribute access on Qt enums is slow in a paint loop.
_SELECTED = QStyle.StateFlag.State_Selected
_ACTIVE = QStyle.StateFlag.State_Active
_ROLE = QPalette.ColorRole
_GROUP = QPalette.ColorGroup
_ALIGN_V = Qt.AlignmentFlag.AlignVCenter
_ALIGN_C = Qt.AlignmentFlag.AlignCenter
_ALIGN_VR = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight
_ELIDE_R = Qt.TextElideMode.ElideRight
_ELIDE_L = Qt.TextElideMode.ElideLeft
_NO_PEN = Qt.PenStyle.NoPen
_PANEL = QStyle.PrimitiveElement.PE_PanelItemViewItem
_AA = QPainter.RenderHint.Antialiasing
_RESULT, _SNIPPET, _TERMS = int(Roles.Result), int(Roles.Snippet), int(Roles.Terms)
DOC_CACHE_SIZE = 256


MIN_ROW_WIDTH = 120
NARROW_ROW = 240  # below this width the row uses short forms


def bar_layout(width: int, fm: QFontMetrics, score_w: int) -> tuple[bool, int]:
    """(labels shown, width of each bar) so that four bars and the score fit in ``width``."""
    labelled = sum(fm.horizontalAdvance(bar_label(label)) + 3 + BAR_W + 8 for label, *_ in BARS)
    if labelled + score_w <= width:
        return True, BAR_W
    return False, max(6, min(BAR_W, (width - score_w - 4 * 4 - 8) // 4))


TYPE_GAP = 8  # between the name and the type
MIN_TYPE_W = 30  # a type narrower than this is left out rather than shown as "…"


@dataclass(frozen=True)
class FirstLine:
    """What the first line of a row shows: the name in full when it fits at all, then the type, then the branch."""

    name: str
    name_w: int
    type_text: str
    type_w: int
    branch: str
    chip_w: int


def first_line(width: int, fm_b: QFontMetrics, fm_s: QFontMetrics, name: str, entity_type: str, branch: str) -> FirstLine:
    """Lay out name, type and branch chip in ``width``: the name gets the room it needs first; the rest shortens after."""
    # Advances are rounded, and elidedText measures in fractions: one spare pixel keeps a name that fits whole.
    name_need = fm_b.horizontalAdvance(name) + 1
    chip_w = fm_s.horizontalAdvance(branch) + 12
    if name_need + TYPE_GAP + chip_w > width and branch == translate("Results", BRANCH_LABELS["both"]):
        both = translate("Results", "both")
        branch, chip_w = both, fm_s.horizontalAdvance(both) + 12
    if name_need + TYPE_GAP + chip_w > width:
        branch, chip_w = "", 0  # the branch is in the tooltip; the name matters more
    avail = width - (chip_w + TYPE_GAP if chip_w else 0)
    name_w = min(name_need, max(20, avail))
    shown = name if name_w >= name_need else fm_b.elidedText(name, _ELIDE_R, name_w)
    dot = fm_s.height() // 2 + 4
    type_w = avail - name_w - TYPE_GAP - dot
    type_text = fm_s.elidedText(entity_type, _ELIDE_R, type_w) if type_w >= MIN_TYPE_W else ""
    return FirstLine(shown, name_w, type_text, max(0, type_w), branch, chip_w)


class ResultDelegate(QStyledItemDelegate):
    """Draws name, type, branch, the best observation with matches highlighted, and the score bars."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._fonts_key = ""
        self._fonts_value: tuple[QFont, QFont, QFontMetrics, QFontMetrics, QFontMetrics] | None = None
        self._docs: dict[tuple, QTextDocument] = {}  # laid-out snippets: layout is the costly part of painting

    def _fonts(self, font: QFont) -> tuple[QFont, QFont, QFontMetrics, QFontMetrics, QFontMetrics]:
        key = font.key()
        if key != self._fonts_key or self._fonts_value is None:
            bold = QFont(font)
            bold.setBold(True)
            small = QFont(font)
            small.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
            self._fonts_key = key
            self._fonts_value = (bold, small, QFontMetrics(bold), QFontMetrics(small), QFontMetrics(font))
        return self._fonts_value

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        _bold, _small, fm_b, fm_s, fm = self._fonts(option.font)
        # Narrow on purpose: rows take the list's width (never wider, so nothing scrolls sideways)
        # and the bars shrink to keep the score in view.
        return QSize(MIN_ROW_WIDTH, fm_b.height() + 2 * fm.height() + fm_s.height() + 3 * PAD)

    def _document(self, text: str, terms: list[str], width: int, font: QFont, color: QColor, mark: QColor) -> QTextDocument:
        key = (text, tuple(terms), width, font.key(), color.rgba(), mark.rgba())
        doc = self._docs.get(key)
        if doc is None:
            if len(self._docs) >= DOC_CACHE_SIZE:
                self._docs.clear()
            doc = QTextDocument()
            doc.setDefaultFont(font)
            doc.setDocumentMargin(0)
            doc.setTextWidth(width)
            doc.setDefaultStyleSheet(f"body {{ color: {color.name()}; }}")
            doc.setHtml(f"<body>{highlight_html(text, terms, mark.name())}</body>")
            self._docs[key] = doc
        return doc

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        r = index.data(_RESULT)
        if r is None:
            return
        model = index.model()
        snippet_text = model.data(index, _SNIPPET) or ""
        terms = model.data(index, _TERMS) or []
        widget = option.widget
        state = option.state
        selected = bool(state & _SELECTED)
        pal = option.palette
        orect = option.rect
        # The selection is painted here, not by the style: a style sheet on the view can hide it.
        if selected:
            group = _GROUP.Active if state & _ACTIVE else _GROUP.Inactive
            painter.fillRect(orect, pal.color(group, _ROLE.Highlight))
        else:
            (widget.style() if widget else QApplication.style()).drawPrimitive(_PANEL, option, painter, widget)
        line = pal.color(_ROLE.Mid)
        line.setAlphaF(0.5)
        painter.fillRect(orect.left(), orect.bottom(), orect.width(), 1, line)
        text_color = pal.color(_ROLE.HighlightedText if selected else _ROLE.Text)
        muted = QColor(text_color)
        muted.setAlphaF(0.7)
        highlight = pal.color(_ROLE.Highlight)
        dark = pal.color(_ROLE.Base).lightness() < 128
        # On a dark base the selection colour is too dim for thin bars: lighten it there.
        accent = text_color if selected else (highlight.lighter(170) if dark else highlight)
        if selected:
            mark = highlight
        else:
            marker = QColor(highlight)
            marker.setAlphaF(0.35)
            mark = _blend(marker, pal.color(_ROLE.Base))
        bold, small, fm_b, fm_s, fm = self._fonts(option.font)
        rect = orect.adjusted(PAD, PAD // 2 + 2, -PAD, -PAD // 2)
        left, top, width = rect.left(), rect.top(), rect.width()
        painter.save()

        # Line 1: name, type, branch chip on the right.
        line = first_line(width, fm_b, fm_s, r.name, r.entity_type, branch_label(r))
        painter.setRenderHint(_AA)
        if line.branch:
            chip = QRect(rect.right() - line.chip_w, top + (fm_b.height() - fm_s.height()) // 2 - 1, line.chip_w,
                         fm_s.height() + 2)
            painter.setPen(_NO_PEN)
            chip_bg = QColor(accent)
            chip_bg.setAlphaF(0.18)
            painter.setBrush(chip_bg)
            painter.drawRoundedRect(chip, 6, 6)
            painter.setFont(small)
            painter.setPen(accent)
            painter.drawText(chip, _ALIGN_C, line.branch)
        painter.setFont(bold)
        painter.setPen(text_color)
        painter.drawText(QRect(left, top, line.name_w, fm_b.height()), _ALIGN_V, line.name)
        if line.type_text:
            # The type's own colour (the same as in the graph) as a dot before its name.
            dot = fm_s.height() // 2
            x = left + line.name_w + TYPE_GAP
            painter.setPen(_NO_PEN)
            painter.setBrush(QColor(type_colour(r.entity_type, dark)))
            painter.drawEllipse(x, top + (fm_b.height() - dot) // 2, dot, dot)
            painter.setFont(small)
            painter.setPen(muted)
            painter.drawText(QRect(x + dot + 4, top, line.type_w, fm_b.height()), _ALIGN_V, line.type_text)
        painter.setRenderHint(_AA, False)
        y = top + fm_b.height() + PAD // 2

        # Lines 2-3: the best observation, matched terms highlighted (rich text, two lines at most).
        doc = self._document(snippet_text, terms, width, option.font, text_color, mark)
        text_h = 2 * fm.height()
        painter.save()
        painter.translate(left, y)
        painter.setClipRect(QRect(0, 0, width, text_h))
        doc.drawContents(painter)
        painter.restore()
        y += text_h + PAD // 2

        # Line 4: four small bars, then the numbers.
        x = left
        track = QColor(muted)
        track.setAlphaF(0.2)
        values = (r.base_relevance, r.importance, r.temporal, r.cooc_boost)
        best = getattr(model, "best", 0.0)
        labelled, bar_w = bar_layout(width, fm_s, fm_b.horizontalAdvance(translate("ResultDelegate", "100% of the best hit")))
        for (key, _role, scale, _tip), value in zip(BARS, values):
            label = bar_label(key)
            frac = value / (1.0 + value) if scale is None else value / scale
            frac = min(1.0, max(0.0, frac))
            lw = fm_s.horizontalAdvance(label) + 3 if labelled else 0
            if labelled:
                painter.setPen(muted)
                painter.drawText(QRect(x, y, lw, fm_s.height()), _ALIGN_V, label)
            bar_x, bar_y = x + lw, y + (fm_s.height() - BAR_H) // 2
            # Square bars: plain fills cost a fraction of antialiased rounded shapes.
            painter.fillRect(bar_x, bar_y, bar_w, BAR_H, track)
            painter.fillRect(bar_x, bar_y, max(1, int(bar_w * frac)), BAR_H, accent)
            x = bar_x + bar_w + (8 if labelled else 4)
        painter.setPen(muted)
        avail = rect.right() - x
        numbers = numbers_text(r, lambda text: fm_s.horizontalAdvance(text) <= avail, best,
                               getattr(model, "time_label", None))
        painter.drawText(QRect(x, y, avail, fm_s.height()), _ALIGN_VR, fm_s.elidedText(numbers, _ELIDE_L, avail))
        painter.restore()


class ResultList(QListView):
    """The result list; when a search found no good match it says so in place of the hits."""

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().paintEvent(event)
        model = self.model()
        text = getattr(model, "empty_text", "") if model is not None else ""
        if not text or model.rowCount():
            return
        painter = QPainter(self.viewport())
        painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
        area = self.viewport().rect().adjusted(16, 24, -16, -16)
        painter.drawText(area, int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap), text)
        painter.end()

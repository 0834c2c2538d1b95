"""What the Health view says: a finding, the merge preview, a row of the list, in words a newcomer reads."""

from __future__ import annotations

import html

from limbic.service import health
from limbic.service.health.merge import MergePlan
from limbic.ui.common.i18n import number, translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

LESS_SURE = QT_TRANSLATE_NOOP("Wording", "less sure")
# The kinds of finding as the list names them (the service's KIND_TITLES, in the window's language).
KIND_WORDS = {"duplicates": QT_TRANSLATE_NOOP("Wording", "Possible duplicates"),
              "observations": QT_TRANSLATE_NOOP("Wording", "Repeated observations"),
              "orphans": QT_TRANSLATE_NOOP("Wording", "Orphans"), "stale": QT_TRANSLATE_NOOP("Wording", "Stale entities"),
              "split": QT_TRANSLATE_NOOP("Wording", "Split candidates"),
              "names": QT_TRANSLATE_NOOP("Wording", "Names with invisible characters")}


def kind_title(kind: str) -> str:
    """A kind of finding's title in the window's language."""
    return translate("Wording", KIND_WORDS[kind]) if kind in KIND_WORDS else health.KIND_TITLES.get(kind, kind)  # the mark of a second-tier duplicate in the list


def keeps(f: health.Finding) -> str:
    """Which entity a merge keeps by default and why: keeps “José García”: has accents."""
    kept, why = f.detail.get("keep"), f.detail.get("keep_reason")
    return translate("Wording", "Merging keeps “{kept}”: {why}.").format(kept=kept, why=why) if kept and why else ""


def finding_row(f: health.Finding) -> str:
    """One line of the findings list: how sure, then the names (the one a merge keeps first)."""
    sure = translate("Wording", LESS_SURE) if f.detail.get("tier", 1) > 1 else number(f.score, 2)
    return f"{sure}   " + "  ⇄  ".join(f.entities)


def finding_html(f: health.Finding) -> str:
    """The detail of a finding: the names, how sure, which one a merge keeps and why, the reasons."""
    names = translate("Wording", " and ").join(f"“{html.escape(n)}”" for n in f.entities)
    less_sure = f.detail.get("tier", 1) > 1
    reasons = "".join(f"<li>{html.escape(r)}</li>" for r in f.reasons if not (less_sure and r.startswith("Less sure")))
    sure = (translate("Wording", "<p><i>Less sure than the pairs above it: shown because this graph is small.</i></p>")
            if less_sure else translate("Wording", "<p>Score {score}</p>").format(score=number(f.score, 2)))
    keep = f"<p><b>{html.escape(keeps(f))}</b></p>" if f.kind == "duplicates" and keeps(f) else ""
    hint = (translate("Wording", "<p>Merge (M) shows what a merge would leave first; Not duplicates (D) if they are two things.</p>")
            if f.kind == "duplicates" else translate("Wording", "<p>Open (O) to look at it, Dismiss (D) if it is fine as it is.</p>"))
    return f"<h3>{names}</h3>{sure}{keep}<ul>{reasons}</ul>{hint}"


def plan_html(plan: MergePlan, stacked: bool = False) -> str:
    """The merge preview: the two entities and what the merged one would hold, side by side (``stacked``:
    what the merge leaves first, then the two as they are, one under another, for a narrow panel)."""
    def column(title: str, name: str, etype: str, status: str, obs: list[str], rels: list[str]) -> str:
        items = "".join(f"<li>{o}</li>" for o in obs) or "<li><i>none</i></li>"
        rel = "".join(f"<li>{r}</li>" for r in rels) or "<li><i>none</i></li>"
        body = (translate("Wording", "<b>{title}</b><br><big>{name}</big><br>{etype} · "
                    "{status}<p>Observations</p><ul>{items}</ul><p>Relations</p><ul>{rel}</ul>").format(title=title, name=html.escape(name), etype=html.escape(etype), status=html.escape(status), items=items, rel=rel))
        return f"<div>{body}</div><hr>" if stacked else f"<td valign='top' width='33%'>{body}</td>"

    def rels_of(view) -> list[str]:
        out = [f"{html.escape(r.relation_type)} → {html.escape(r.to_name)}" for r in view.outgoing]
        return out + [f"{html.escape(r.relation_type)} ← {html.escape(r.from_name)}" for r in view.incoming]

    src, tgt = plan.source, plan.target
    merged_obs = [(f"<b>+ {html.escape(o)}</b>" if o in plan.added else html.escape(o)) for o in plan.observations]
    same, other_words = translate("Wording", "already there"), translate("Wording", "already there in other words")
    merged_obs += [f"<s>{html.escape(o)}</s> <i>({same if o.strip() == t.strip() else other_words})</i>"
                   for o, t in plan.dropped]
    merged_rels = [(("<b>+ " if r.moved else "") + (f"{html.escape(r.relation_type)} → {html.escape(r.other_name)}"
                    if r.outgoing else f"{html.escape(r.relation_type)} ← {html.escape(r.other_name)}")
                    + ("</b>" if r.moved else "")) for r in plan.relations]
    for sentence in plan.dropped_relations:  # the relation struck out, the reason readable
        what, _, why = sentence.rpartition(": ")
        merged_rels.append(f"<s>{html.escape(what)}</s> <i>({html.escape(why.rstrip('.'))})</i>" if what
                           else f"<i>{html.escape(sentence)}</i>")
    conflicts = "".join((translate("Wording", "<p><b>The types differ:</b> “{kept}” (kept) and “{other}”; choose "
                                   "below.</p>") if c.field == "type" else
                         translate("Wording", "<p><b>The statuses differ:</b> “{kept}” (kept) and “{other}”; choose "
                                   "below.</p>")).format(kept=html.escape(c.target), other=html.escape(c.source))
                        for c in plan.conflicts)
    names = ", ".join(f"“{html.escape(a)}”" for a in plan.aliases)  # the name that goes still finds it
    aliases = translate("Wording", "<p><b>Also known as afterwards:</b> {names}</p>").format(names=names) if plan.aliases else ""
    goes = column(translate("Wording", "Goes"), src.entity.name, src.entity.entity_type, src.entity.status,
                  [html.escape(o) for o in src.entity.observation_texts], rels_of(src))
    stays = column(translate("Wording", "Stays"), tgt.entity.name, tgt.entity.entity_type, tgt.entity.status,
                   [html.escape(o) for o in tgt.entity.observation_texts], rels_of(tgt))
    after = column(translate("Wording", "After the merge"), plan.name, plan.entity_type, plan.status, merged_obs, merged_rels)
    columns = (after + goes + stays) if stacked else ("<table width='100%' cellspacing='8'><tr>" + goes + stays
                                                      + after + "</tr></table>")
    # Stacked, the types to choose between come first: under three columns' worth of lists they were out of view.
    return ((conflicts + aliases + columns if stacked else columns + aliases + conflicts)
            + translate("Wording", "<p><b>Merge now (M)</b> or Enter merges (Ctrl+Z undoes it), <b>Keep the other (S)</b> swaps which one "
              "stays, Esc goes back.</p>"))

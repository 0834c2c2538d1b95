"""The search filters said in the window's language, from the filter's own fields (the service's
``SearchFilter.describe`` says them in English for the command line)."""

from __future__ import annotations

from limbic.service.filters import SearchFilter
from limbic.ui.common.i18n import translate


def filter_words(flt: SearchFilter) -> str:
    """“type Person, status active, updated from 2026-01-01” (“tipo Person, estado activa, …” in Spanish)."""
    parts = []
    if flt.entity_type:
        parts.append(translate("FilterWords", "type {value}").format(value=flt.entity_type))
    if flt.relation_type:
        parts.append(translate("FilterWords", "relation {value}").format(value=flt.relation_type))
    if flt.status:
        parts.append(translate("FilterWords", "status {value}").format(value=translate("FilterBar", flt.status)))
    if flt.text:
        parts.append(translate("FilterWords", "words {value}").format(value=flt.text))
    for what, start, end in (("updated", flt.updated_from, flt.updated_to), ("created", flt.created_from, flt.created_to)):
        if not (start or end):
            continue
        if what == "updated":
            said = (translate("FilterWords", "updated {start} to {end}") if start and end
                    else translate("FilterWords", "updated from {start}") if start
                    else translate("FilterWords", "updated until {end}"))
        else:
            said = (translate("FilterWords", "created {start} to {end}") if start and end
                    else translate("FilterWords", "created from {start}") if start
                    else translate("FilterWords", "created until {end}"))
        parts.append(said.format(start=start, end=end))
    return translate("FilterWords", ", ").join(parts)

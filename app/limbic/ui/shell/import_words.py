"""What an import did, said in the window's language from the summary's counts; the rarer notes after them
(names merged by case, relations skipped, entities still waiting for a vector) stay as the service says them."""

from __future__ import annotations

from limbic.ui.common.i18n import translate

COUNTS = ("entities_in_file", "entities_created", "observations_added", "relations_added")


def import_words(summary) -> str:
    """“50 entities read (50 new), 115 observations and 60 relations added.” in the window's language."""
    said = summary.describe()
    if not all(hasattr(summary, name) for name in COUNTS) or not hasattr(summary, "describe_graph"):
        return said
    graph = summary.describe_graph()
    if not said.startswith(graph):
        return said
    read, new = summary.entities_in_file, summary.entities_created
    observations, relations = summary.observations_added, summary.relations_added
    words = translate("ImportWords", "{read} ({new} new), {observations} and {relations} added").format(
        read=translate("ImportWords", "%n entities read", "", read), new=new,
        observations=translate("ImportWords", "%n observations", "", observations),
        relations=translate("ImportWords", "%n relations", "", relations))
    return words + said[len(graph):]

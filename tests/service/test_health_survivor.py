"""Memory health keeps the better name by default and says why; a small graph still offers its less sure pairs."""

from __future__ import annotations

from limbic.service import health


def _by_pair(report) -> dict:
    return {frozenset(f.entities): f for f in report.findings["duplicates"]}


def test_the_better_name_stays_and_the_reason_is_given():
    from limbic.service.health.survivor import Side, choose

    assert choose(Side("Jose Garcia", relations=5), Side("José García", relations=1)) == (1, "has accents")
    assert choose(Side("NYC", relations=3), Side("New York City")) == (1, "the full form, not the abbreviation")
    assert choose(Side("CRM"), Side("Customer Relationship Management")) == (1, "the full form, not the abbreviation")
    assert choose(Side("Marta"), Side("Quintero, Marta")) == (1, "the fuller name")
    keep, why = choose(Side("Harbor API", relations=2), Side("Harbour API", relations=7))
    assert keep == 1 and why == "better connected (7 relations against 2)"
    # Accents decide between spellings of one name only, not between two languages.
    assert choose(Side("Mexico City", relations=2), Side("Ciudad de México"))[0] == 0


def test_a_scan_lists_the_kept_entity_first_with_its_reason(text_graph):
    g = text_graph
    g.upsert_entity("Ana Ruiz", "Person", ["Design lead at Harbor"])
    g.upsert_entity("ana ruíz", "Person", ["Design lead at Harbor", "Reviews UI changes on Thursdays"])
    g.upsert_entity("Customer Relationship Management", "Tool", ["Where the sales team keeps contacts"])
    g.upsert_entity("CRM", "Tool", ["Where the sales team keeps contacts"])
    g.upsert_entity("Harbor", "Organization", ["The company"])
    g.add_relation("Ana Ruiz", "Harbor", "works_at")  # the unaccented one is the better connected: accents still win
    found = _by_pair(health.scan(g, ["duplicates"]))
    ana = found[frozenset({"Ana Ruiz", "ana ruíz"})]
    assert ana.entities[0] == "ana ruíz" and ana.detail["keep_reason"] == "has accents"
    assert ana.ids[0] == g.resolve("ana ruíz")  # the view's merge keeps ids[0]
    crm = found[frozenset({"CRM", "Customer Relationship Management"})]
    assert crm.entities[0] == "Customer Relationship Management"
    assert crm.detail["keep_reason"] == "the full form, not the abbreviation"


def test_a_small_graph_offers_less_sure_pairs_after_the_sure_ones(text_graph):
    g = text_graph
    g.upsert_entity("Marta Quintero", "Person", ["Writes the weekly summary"])
    g.upsert_entity("Marta", "Person", ["Joined the Monday call"])
    g.upsert_entity("Postgres", "Tool", ["Relational database of the ledger"])
    g.upsert_entity("Postgres backup job", "Tool", ["Copies the ledger database every night"])
    g.add_relation("Postgres backup job", "Postgres", "depends_on")  # recorded as two things on purpose
    g.upsert_entity("Tomás Ruiz", "Person", ["Backend engineer"])
    g.upsert_entity("Ruiz, Tomás", "Person", ["Works on the ledger"])
    report = health.scan(g, ["duplicates"])
    found = _by_pair(report)
    marta = found[frozenset({"Marta", "Marta Quintero"})]
    assert marta.detail["tier"] == 2 and marta.entities[0] == "Marta Quintero"
    assert any("inside the other" in r for r in marta.reasons) and any(r.startswith("Less sure") for r in marta.reasons)
    assert frozenset({"Postgres", "Postgres backup job"}) not in found
    tiers = [f.detail.get("tier", 1) for f in report.findings["duplicates"]]
    assert tiers == sorted(tiers) and tiers[0] == 1  # every sure pair comes before the less sure ones

"""What a health check reports: one finding per problem, with the sentences that say why."""

from __future__ import annotations

from dataclasses import dataclass, field

KINDS = ("duplicates", "observations", "orphans", "stale", "split", "names")
KIND_TITLES = {
    "duplicates": "Possible duplicates",
    "observations": "Repeated observations",
    "orphans": "Orphans",
    "stale": "Stale entities",
    "split": "Split candidates",
    "names": "Names with invisible characters",
}


@dataclass
class Finding:
    """One thing to review: its kind, the entities (ids and names), a score 0..1 and the reasons."""

    kind: str
    ids: list[int]
    entities: list[str]
    score: float
    reasons: list[str] = field(default_factory=list)
    detail: dict = field(default_factory=dict)  # kind-specific: observation ids, a proposed split...

    def to_json(self) -> dict:
        """The JSON form the CLI prints: {"kind", "entities", "score", "reasons"} (plus the detail)."""
        out = {"kind": self.kind, "entities": list(self.entities), "score": round(float(self.score), 3),
               "reasons": list(self.reasons)}
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass
class Report:
    """The findings of one scan, by kind, best first."""

    findings: dict[str, list[Finding]] = field(default_factory=dict)
    entities: int = 0
    seconds: float = 0.0
    peak_mib: float = 0.0  # the scanning process's peak memory, when it ran in one of its own

    def counts(self) -> dict[str, int]:
        """How many findings of each kind."""
        return {k: len(v) for k, v in self.findings.items()}

    def all(self) -> list[Finding]:
        """Every finding, kind by kind in the usual order."""
        return [f for k in KINDS for f in self.findings.get(k, [])]

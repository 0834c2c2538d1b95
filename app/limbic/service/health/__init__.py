"""Memory health: duplicate candidates, repeated observations, orphans, stale and oversized entities.

Every check reads only (it runs on any connection, in the background, with progress and cancel)
and reports findings with the sentences that say why; nothing is merged, split or deleted here.
A merge is the person's decision (``merge.py``: a preview first, computed by the merge itself).
The app runs the checks in a process of its own (``background.py``) so the window stays fluid.
"""

from __future__ import annotations

from limbic.service.health.background import scan_in_process
from limbic.service.health.checks import check_kinds, scan, scan_file
from limbic.service.health.dismiss import dismiss, dismissed, undismiss
from limbic.service.health.findings import KIND_TITLES, KINDS, Finding, Report
from limbic.service.health.load import Handle
from limbic.service.health.structure import STALE_DAYS

__all__ = ["KINDS", "KIND_TITLES", "STALE_DAYS", "Finding", "Handle", "Report", "dismiss", "dismissed", "undismiss", "scan",
           "scan_file", "scan_in_process", "check_kinds"]

"""QUENCH (Khan et al.): quiz questions with masked entities, Indic vs non-Indic, scored by overlap and an LLM jury."""

from lm_eval_xling.reports.contrasts import Contrast, ReportFamily

REPORT = ReportFamily(
    "quench",
    "QUENCH",
    (Contrast("non-Indic vs Indic", "non_indic", "indic"),),
    own_deltas="non-Indic vs Indic (task's delta)",
    per_document="lm_eval_xling.quench.tasks:per_document",
)

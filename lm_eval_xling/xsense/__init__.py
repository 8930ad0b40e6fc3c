"""Multi-sense consistency (Ohmer et al.): PAWS-X and XNLI in en/de/zh, model-internal translation."""

from lm_eval_xling.reports.contrasts import Contrast, ReportFamily

CONSISTENCY_REPORT = "consistency.json"  # what `consistency run` writes into its output folder

REPORT = ReportFamily(
    "xsense",
    "XSense",
    tuple(Contrast(f"source vs translated ({low})", "en", low, metrics=("acc",)) for low in ("de", "zh")),
)

"""NSP (Chavan and Mostow): next-sentence prediction on children's stories in English, Swahili and Hausa."""

from lm_eval_xling.reports.contrasts import Contrast, ReportFamily

REPORT = ReportFamily(
    "nsp",
    "NSP",
    (Contrast("English vs Swahili", "english", "swahili"), Contrast("English vs Hausa", "english", "hausa")),
)

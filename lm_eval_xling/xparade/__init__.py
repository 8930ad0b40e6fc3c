"""X-PARADE (Rodriguez et al.): span-level information divergence between paragraphs in two languages."""

from lm_eval_xling.reports.contrasts import ReportFamily

REPORT = ReportFamily("xparade", "xPARADE")

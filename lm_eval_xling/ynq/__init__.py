"""Y-NQ: open-book reading comprehension over long English and Yoruba documents."""

from lm_eval_xling.reports.contrasts import Contrast, ReportFamily

REPORT = ReportFamily("ynq", "Y-NQ", (Contrast("English vs Yoruba", "english", "yoruba"),))

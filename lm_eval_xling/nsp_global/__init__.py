"""NSP Global: next-page prediction on parallel African Storybook stories; every language asks the same questions
(document field `id`), so each is compared item by item with English."""

from lm_eval_xling.reports.contrasts import ParallelLanguages, ReportFamily

REPORT = ReportFamily(
    "nsp_global", "NSP Global", parallel=ParallelLanguages(reference="en", pair_field="id", variants=("ll",))
)

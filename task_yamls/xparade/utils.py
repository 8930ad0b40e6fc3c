# Hooks for the X-PARADE YAMLs; the code lives in the package (this file is loaded by path, see lm_eval_xling.xparade).
from lm_eval_xling.metrics.span_f1 import (  # noqa: F401
    inf_f1,
    inf_precision,
    inf_recall,
    macro_f1,
    new_f1,
    new_precision,
    new_recall,
    same_f1,
)
from lm_eval_xling.xparade import (  # noqa: F401
    doc_to_text,
    extract_spans,
    gold_answer,
    load,
    process_results,
    unmatched_span_rate,
)

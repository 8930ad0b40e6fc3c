# Hooks for these YAMLs, loaded by path by lm-eval; the code lives in the package (see the imports).
from lm_eval_xling.xparade.span_f1 import (  # noqa: F401
    inf_f1,
    inf_precision,
    inf_recall,
    macro_f1,
    macro_precision,
    macro_recall,
    new_f1,
    new_precision,
    new_recall,
    same_f1,
    same_precision,
    same_recall,
)
from lm_eval_xling.xparade.tasks import (  # noqa: F401
    doc_to_text,
    doc_to_text_translated,
    extract_spans,
    extract_spans_on_translation,
    gold_answer,
    load,
    load_with_reverse_examples,
    oneshot_docs,
    process_results,
    process_results_translated_target,
    token_count,
    unmatched_span_rate,
)

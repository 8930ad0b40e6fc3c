# Hooks for these YAMLs, loaded by path by lm-eval; the code lives in the package (see the imports).
from lm_eval_xling.quench.tasks import (  # noqa: F401
    EntityTask,
    RationaleTask,
    entity_cot_prompt,
    entity_named_cot_prompt,
    entity_named_prompt,
    entity_prompt,
    extract_entities,
    extract_rationale,
    indic_only,
    load_entities,
    load_rationale_pred,
    non_indic_only,
    rationale_gold_cot_prompt,
    rationale_gold_prompt,
    rationale_pred_cot_prompt,
    rationale_pred_prompt,
)

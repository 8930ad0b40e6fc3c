# Hooks for the QUENCH YAMLs; the code lives in the package (this file is loaded by path, see lm_eval_xling.quench).
from lm_eval_xling.quench import (  # noqa: F401
    EntityTask,
    RationaleTask,
    entity_cot_prompt,
    entity_prompt,
    entity_target,
    extract_entities,
    extract_rationale,
    indic_only,
    load,
    load_rationale_gold,
    load_rationale_pred,
    non_indic_only,
    rationale_prompt,
)

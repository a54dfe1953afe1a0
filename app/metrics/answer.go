package metrics

// Answer metrics are computed by package answer; these families describe
// them. Every one is per item, 0 or 1 unless noted, on answerable items only
// (unanswerable items go to the refusal metrics, seed 003 §7).

var answerCorrectFamily = Family{
	Name:  "answer.correct",
	Group: GroupAnswer,
	Help: "The item's primary correctness: mcq_single choice match; mcq_multi exact set; numeric within tolerance (when the reference is a number); " +
		"freeform exact, alias or substring match; code: the result's passed flag; judge_pairwise: agreement with the reference verdict.",
	Formula:        "per type, see docs/metrics.md",
	Source:         "seed 004 (item types); seed 002 (substring); seed 003 §4.3 (aliases, numeric_tolerance)",
	HigherIsBetter: true,
	Binary:         true,
}

var toolScoreFamily = Family{
	Name:  "tool.score",
	Group: GroupAnswer,
	Help: "The evaluation tool's own per-item score, read from its log: Inspect AI's primary scorer value (C = 1, P = 0.5, I = N = 0, numbers as they are) reduced over epochs with the log's reducer (mean by default); lm-evaluation-harness's per-doc value of the primary metric (acc, else exact_match); promptfoo's row score; HELM's primary per-instance stat (exact_match, else quasi / prefix exact match, f1_score, rouge_l). " +
		"Its mean is the tool's headline accuracy / mean / score recomputed; answer.correct on these items is the tool's pass verdict (promptfoo success; otherwise a reduced score of 1).",
	Formula:        "reduce_epochs(value(score))",
	Source:         "issue 14; Inspect AI value_to_float and mean reducer; lm-eval per-sample metrics; promptfoo gradingResult.score",
	HigherIsBetter: true,
}

var answerExactFamily = Family{
	Name:           "answer.exact",
	Group:          GroupAnswer,
	Help:           "Normalised response equals the normalised reference (full-width folded, whitespace and punctuation removed except %, ‰, decimal point and leading minus, Latin lower-cased).",
	Formula:        "[norm(response) = norm(reference)]",
	Source:         "seed 002 (verbatim answers); seed 003 §3.1 (NFKC)",
	HigherIsBetter: true,
	Binary:         true,
}

var answerAliasFamily = Family{
	Name:           "answer.alias",
	Group:          GroupAnswer,
	Help:           "Normalised response equals the reference or one of its answer_aliases.",
	Formula:        "[∃ a ∈ {reference} ∪ aliases : norm(response) = norm(a)]",
	Source:         "seed 003 §4.3 (answer_aliases)",
	HigherIsBetter: true,
	Binary:         true,
}

var answerSubstringFamily = Family{
	Name:           "answer.substring",
	Group:          GroupAnswer,
	Help:           "The normalised reference (or an alias) occurs inside the normalised response.",
	Formula:        "[∃ a : norm(a) ⊆ norm(response)]",
	Source:         "seed 002 (5.8 子串判分; direct questions: the key sentence is hit)",
	HigherIsBetter: true,
	Binary:         true,
}

var answerBigramFamily = Family{
	Name:           "answer.bigram",
	Group:          GroupAnswer,
	Help:           "Character-bigram coverage: share of the normalised reference's distinct character bigrams present in the normalised response (best over reference and aliases).",
	Formula:        "|bigrams(norm(ref)) ∩ bigrams(norm(response))| / |bigrams(norm(ref))|",
	Source:         "seed 002 (5.8 bigram 覆盖率)",
	HigherIsBetter: true,
}

var answerMCQPartialFamily = Family{
	Name:           "answer.mcq_partial",
	Group:          GroupAnswer,
	Help:           "mcq_multi partial credit: Jaccard similarity of the chosen and the correct option sets.",
	Formula:        "|chosen ∩ correct| / |chosen ∪ correct|",
	Source:         "seed 004 (mcq_multi); Jaccard",
	HigherIsBetter: true,
}

var answerNumericFamily = Family{
	Name:    "answer.numeric",
	Group:   GroupAnswer,
	Help:    "Numeric answers: the number (and unit) parsed from the response, converted to the reference's unit, is within |x − ref| ≤ absolute or ≤ relative·|ref|.",
	Formula: "[|x − ref| ≤ abs ∨ |x − ref| ≤ rel·|ref|]",
	Source:  "seed 003 §4.3 (numeric_tolerance), §7 (数值及单位正确率)",
	Thresholds: map[int]Threshold{
		0: th(">=", 0.95, "seed 003 §7 (数值题)"),
	},
	HigherIsBetter: true,
	Binary:         true,
}

var codePassedFamily = Family{
	Name:           "code.passed",
	Group:          GroupAnswer,
	Help:           "The result's passed flag (an external checker's verdict), when present.",
	Formula:        "[passed]",
	Source:         "seed 004 (code, checkers/)",
	HigherIsBetter: true,
	Binary:         true,
}

// Judge_pairwise: indicators of the run's verdict (their means are the win
// rates) and agreement with the reference verdict.

var judgeAWinFamily = Family{
	Name: "judge.a_win", Group: GroupAnswer, Binary: true, HigherIsBetter: true,
	Help: "judge_pairwise: the run's verdict is A (the mean is A's win rate).", Formula: "[verdict = A]",
	Source: "seed 004 (judge_pairwise)",
}

var judgeBWinFamily = Family{
	Name: "judge.b_win", Group: GroupAnswer, Binary: true, HigherIsBetter: true,
	Help: "judge_pairwise: the run's verdict is B (the mean is B's win rate).", Formula: "[verdict = B]",
	Source: "seed 004 (judge_pairwise)",
}

var judgeTieFamily = Family{
	Name: "judge.tie", Group: GroupAnswer, Binary: true, HigherIsBetter: true,
	Help: "judge_pairwise: the run's verdict is a tie.", Formula: "[verdict = tie]",
	Source: "seed 004 (judge_pairwise)",
}

var judgeAgreeFamily = Family{
	Name: "judge.agree", Group: GroupAnswer, Binary: true, HigherIsBetter: true,
	Help: "judge_pairwise: the run's verdict equals the reference verdict (the item's answer).", Formula: "[verdict = reference]",
	Source: "seed 004 (judge_pairwise)",
}

// Seed 003 §7's generation and citation figures (answerable seed-003
// questions; docs/metrics.md gives the N/A rules of §7 point 4).

var citationPrecisionFamily = Family{
	Name: "citation.precision", Group: GroupAnswer, HigherIsBetter: true,
	Help:    "Citation precision: share of the answer's citations whose chunk carries a grade ≥ 2 judgment for the question; N/A without citations (seed 003 §7.4).",
	Formula: "|{c ∈ citations : grade(c.chunk) ≥ 2}| / |citations|",
	Source:  "seed 003 §7 (Citation Precision ≥ 0.90)",
	Thresholds: map[int]Threshold{
		0: th(">=", 0.90, "seed 003 §7 (Citation Precision)"),
	},
}

var citationRecallFamily = Family{
	Name: "citation.recall", Group: GroupAnswer, HigherIsBetter: true,
	Help:    "Citation recall: share of the question's required evidence groups that a supporting citation (grade ≥ 2) falls in; 0 for an answerable question answered without citations (seed 003 §7.4).",
	Formula: "|{g ∈ required : some supporting cited chunk ∈ g}| / |required|",
	Source:  "seed 003 §7 (Citation Recall ≥ 0.85)",
	Thresholds: map[int]Threshold{
		0: th(">=", 0.85, "seed 003 §7 (Citation Recall)"),
	},
}

var completeSuccessFamily = Family{
	Name: "complete_success", Group: GroupAnswer, HigherIsBetter: true, Binary: true,
	Help:    "Complete success: the answer is correct, every citation supports (precision 1) and every required evidence group is cited (recall 1), and — when expert grades are loaded — grade ≥ 2 with every atomic fact supported.",
	Formula: "[answer.correct ∧ citation.precision = 1 ∧ citation.recall = 1 (∧ expert pass ∧ faithfulness = 1)]",
	Source:  "seed 003 §7 (完整成功 ≥ 0.75)",
	Thresholds: map[int]Threshold{
		0: th(">=", 0.75, "seed 003 §7 (端到端完整成功率)"),
	},
}

var systemErrorFamily = Family{
	Name: "system.error", Group: GroupAnswer, Binary: true,
	Help:    "The result reports an error (results.jsonl or a prediction's error field); the mean is the error rate. Applies to the runs that report errors at all; a missing result counts as an error.",
	Formula: "[error ≠ \"\"]",
	Source:  "seed 003 §7 (稳态错误率 < 1%)",
	Thresholds: map[int]Threshold{
		0: {Op: "<", Value: 0.01, Source: "seed 003 §7 (稳态错误率 < 1%)"},
	},
}

var expertPassFamily = Family{
	Name: "answer.expert_pass", Group: GroupAnswer, HigherIsBetter: true, Binary: true,
	Help:    "Expert answer grade ≥ 2 (0–3 scale of seed 003 §7.1) on an answerable question, from the loaded human grades (rag.grades); a numeric question must also be within tolerance.",
	Formula: "[grade ≥ 2 ∧ (not numeric ∨ answer.numeric = 1)]",
	Source:  "seed 003 §7 (专家答案通过率 ≥ 0.80)",
	Thresholds: map[int]Threshold{
		0: th(">=", 0.80, "seed 003 §7 (专家答案通过率)"),
	},
}

var faithfulnessFamily = Family{
	Name: "faithfulness", Group: GroupAnswer, HigherIsBetter: true,
	Help:    "Atomic facts of the answer supported by the evidence sent to the generator / all atomic facts (human grades); N/A when the answer states no fact (a correct refusal).",
	Formula: "facts_supported / facts_total",
	Source:  "seed 003 §7 (事实忠实度 ≥ 0.95; §7.2–7.5)",
	Thresholds: map[int]Threshold{
		0: th(">=", 0.95, "seed 003 §7 (事实忠实度)"),
	},
}

var noEvidenceFamily = Family{
	Name: "no_evidence_share", Group: GroupAnswer,
	Help:    "Share of the answer's atomic facts without supporting evidence, 1 − faithfulness on the same facts (seed 003 §7.5: one constraint with faithfulness, not a second success condition).",
	Formula: "1 − facts_supported / facts_total",
	Source:  "seed 003 §7 (无证据事实占比 ≤ 5%)",
	Thresholds: map[int]Threshold{
		0: th("<=", 0.05, "seed 003 §7 (无证据事实占比)"),
	},
}

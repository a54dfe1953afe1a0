package audit

import "eval752/app/finding"

// Seed 002's three gates ("一个人怎么保证质量": eval/validate.py) as
// registered rules. Family "v2": they run on test set v2 questions and the
// clause index. Unique ids and duplicate questions are checked for every
// format by package validate and are not repeated here.

const src002 = "seed 002 "

var (
	ruleRequired = finding.Register(finding.Rule{
		Code: "v2.required-field", Severity: finding.Error, Family: "v2",
		Description: "A v2 question has its question, category, split (dev/test) and origin (v1/v2); a direct/conditional/cross question also has an answer and at least one (doc, clause) provenance.",
		Source:      src002 + "一个人怎么保证质量 (字段) / 四类题",
		Hint:        "Fill the field; refuse questions carry no provenance and a null answer (or the refusal phrase).",
	})
	ruleCategory = finding.Register(finding.Rule{
		Code: "v2.category", Severity: finding.Error, Family: "v2",
		Description: "A v2 question's category is one of direct, conditional, cross, refuse.",
		Source:      src002 + "四类题对应四种失败",
		Hint:        "Use one of the four categories; each is scored differently.",
	})
	ruleRefuseAnswer = finding.Register(finding.Rule{
		Code: "v2.refuse-answer", Severity: finding.Error, Family: "v2",
		Description: "A refuse question's answer is null or the refusal phrase (default 「资料中没有相关信息」).",
		Source:      src002 + "四类题 (拒答不看出处，只看有没有说出「资料中没有相关信息」)",
		Hint:        "Set the answer to null or to the refusal phrase; if the corpus does answer it, it is not a refuse question.",
	})
	ruleRefuseProvenance = finding.Register(finding.Rule{
		Code: "v2.refuse-provenance", Severity: finding.Warning, Family: "v2",
		Description: "A refuse question cites no provenance.",
		Source:      src002 + "四类题 (拒答不看出处)",
		Hint:        "Remove the provenance, or recategorise the question if the cited clause answers it.",
	})
	ruleQuota = finding.Register(finding.Rule{
		Code: "v2.quota", Severity: finding.Warning, Family: "v2",
		Description: "Each category's share of the set is within the tolerance of its target (default 25 % ± 5 pp each); in draft mode, the category has the expected count.",
		Source:      src002 + "规模、分片与功效 (四类各 75) / 按文档和题型配额出题",
		Hint:        "Write or retire questions of this category until the quota holds; a lopsided set averages away the failures of the rare type.",
	})
	ruleIndexMissing = finding.Register(finding.Rule{
		Code: "v2.clause-index-missing", Severity: finding.Warning, Family: "v2",
		Description: "No clause index was given, so provenance, verbatim answers and coverage could not be checked (one finding per set, not per line).",
		Source:      src002 + "出处：先能定位，再谈标注 (corpus/index.json)",
		Hint:        "Add the clause index (clauses.jsonl: doc, clause, text) next to the questions.",
	})
	ruleProvenance = finding.Register(finding.Rule{
		Code: "v2.provenance-missing", Severity: finding.Error, Family: "v2",
		Description: "Every (doc, clause) a question cites is in the clause index.",
		Source:      src002 + "一个人怎么保证质量 (出处是否存在)",
		Hint:        "Fix the doc id or clause number, or add the clause to the index; an answer must lead back to a checkable place.",
	})
	ruleCrossProvenance = finding.Register(finding.Rule{
		Code: "v2.cross-provenance", Severity: finding.Error, Family: "v2",
		Description: "A cross question cites at least two distinct provenances.",
		Source:      src002 + "一个人怎么保证质量 (cross 是否至少两个出处)",
		Hint:        "Add the second clause the answer combines, or recategorise the question as direct.",
	})
	ruleCrossJoint = finding.Register(finding.Rule{
		Code: "v2.cross-joint", Severity: finding.Error, Family: "v2",
		Description: "A cross question has joint: true (every provenance must be retrieved).",
		Source:      src002 + "四类题 (跨段组合要求两个出处都命中 joint: true)",
		Hint:        "Set \"joint\": true.",
	})
	ruleVerbatim = finding.Register(finding.Rule{
		Code: "v2.answer-not-verbatim", Severity: finding.Error, Family: "v2",
		Description: "Every sentence of a new answer (split on 「；」, whitespace ignored) appears verbatim in the union of the cited clauses' texts.",
		Source:      src002 + "标准答案：从改写改成逐字抄",
		Hint:        "Copy the clause text exactly (consecutive sentences joined with 「；」, no 「应当」/「不符合」 prefixes).",
	})
	ruleContribution = finding.Register(finding.Rule{
		Code: "v2.cross-contribution", Severity: finding.Error, Family: "v2",
		Description: "Each provenance of a cross question contributes at least one sentence of the answer.",
		Source:      src002 + "标准答案 (跨段题必须两个出处各贡献至少一句原文)",
		Hint:        "Add a sentence from this clause to the answer, or drop the provenance.",
	})
	ruleAmbiguous = finding.Register(finding.Rule{
		Code: "v2.clause-ambiguous", Severity: finding.Error, Family: "v2",
		Description: "When a (doc, clause) number carries several distinct bodies, the answer falls in exactly one of them (identical re-typeset bodies count as one).",
		Source:      src002 + "出处 (指南也有重复条号：答案必须只落在其中一段不同正文里)",
		Hint:        "Quote a sentence that only one of the bodies contains, or fix the index so the clause number is unique.",
	})
	ruleReuse = finding.Register(finding.Rule{
		Code: "v2.clause-reuse", Severity: finding.Warning, Family: "v2",
		Description: "No clause is cited by more than 2 new (origin v2) questions of one category.",
		Source:      src002 + "一个人怎么保证质量 (新增题在同一题型下是否复用同一条款超过 2 次)",
		Hint:        "Move some of these questions to other clauses; a model that memorises one clause should not score several questions.",
	})
	ruleV1InTest = finding.Register(finding.Rule{
		Code: "v2.v1-in-test", Severity: finding.Error, Family: "v2",
		Description: "Questions kept from v1 are in dev only; test holds only new questions.",
		Source:      src002 + "规模、分片与功效 (v1 保留的题全部进 dev，test 只放新题)",
		Hint:        "Move the question to dev: v1 questions took part in earlier decisions, on test they measure memory.",
	})
	ruleSplitCounts = finding.Register(finding.Rule{
		Code: "v2.split-counts", Severity: finding.Info, Family: "v2",
		Description: "Counts of questions per split, category and origin.",
		Source:      src002 + "一个人怎么保证质量 (dev/test 数量)",
		Hint:        "Check the counts against the plan (seed 002: dev 150 = 79 v1 + 71 new, test 150 new).",
	})
	ruleCoverage = finding.Register(finding.Rule{
		Code: "v2.ngram-coverage", Severity: finding.Warning, Family: "v2",
		Description: "A paraphrased (origin v1) answer shares at least 45 % of its character 4-grams with the cited clause text(s).",
		Source:      src002 + "标准答案 (4-gram 覆盖率低于 45%，校验会告警但不报错)",
		Hint:        "Check the paraphrase still says what the clause says, or replace it with the verbatim text.",
	})
	ruleConcentration = finding.Register(finding.Rule{
		Code: "v2.doc-concentration", Severity: finding.Warning, Family: "v2",
		Description: "No document supplies more than the bound (default 50 %) of the citations of the set, of its v1 questions or of its new questions.",
		Source:      src002 + "出处太集中 (79%) / 最终结果 (v1 79%、v2 整体 55.3%)",
		Hint:        "Write new questions on the other documents; a score then says something about the corpus, not one law.",
	})
	ruleDraftSkipped = finding.Register(finding.Rule{
		Code: "v2.draft-skipped", Severity: finding.Info, Family: "v2",
		Description: "In draft mode (--category C), questions of other categories are not checked.",
		Source:      src002 + "动手实验 (validate.py --draft 草稿.jsonl --category direct)",
		Hint:        "Run the draft check once per category, or the full check on the whole set.",
	})
)

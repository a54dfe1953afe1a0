package model

import "slices"

// ErrorCode is one code of seed 003 §9's error taxonomy.
type ErrorCode struct {
	Code    string `json:"code"`
	Meaning string `json:"meaning"`
	// Derived: eval752 attributes it from what is loaded (docs/metrics.md
	// gives each rule); the others need a reviewer and are read from a
	// run's errors.jsonl.
	Derived bool `json:"derived"`
}

// Taxonomy is seed 003 §9's table, in its order; REFUSAL_OVER/UNDER and
// SYSTEM_TIMEOUT/RATE_LIMIT are split into their two codes.
var ErrorTaxonomy = []ErrorCode{
	{"SOURCE_LICENSE", "许可或来源问题 (licence or source problem)", false},
	{"CORPUS_MISSING", "语料不存在答案 (the corpus has no answer)", false},
	{"PARSE_LAYOUT", "阅读顺序或版面错误 (reading order or layout error)", false},
	{"OCR_TERM", "术语 OCR 错误 (OCR error in a term)", false},
	{"OCR_NUMBER", "数值 OCR 错误 (OCR error in a number)", false},
	{"TABLE_ALIGNMENT", "表格行列错位 (table rows / columns misaligned)", false},
	{"FIGURE_UNDERSTANDING", "依赖图件空间关系 (depends on a figure's spatial relations)", false},
	{"CHUNK_BOUNDARY", "必要信息跨切片 (required information spans chunks)", true},
	{"DUPLICATE_CROWDING", "重复切片占满候选 (duplicate chunks fill the candidates)", true},
	{"ENTITY_COLLISION", "同名矿床/地区/地层混淆 (same-name entities confused)", false},
	{"RETRIEVAL_MISS", "初召回未找到证据 (first-stage retrieval found no evidence)", true},
	{"RERANK_WRONG_ORDER", "已召回但重排顺序错误 (retrieved, but reranked below the context cut)", true},
	{"RERANK_TRUNCATION", "候选被截断 (evidence cut from the reranked list)", true},
	{"GEN_HALLUCINATION", "生成无依据内容 (unsupported content generated)", false},
	{"GEN_OMISSION", "证据存在但答案遗漏 (evidence present, answer omits it)", false},
	{"NUMERIC_UNIT", "数值或单位错误 (wrong number or unit)", true},
	{"CONFLICT_VERSION", "忽略资料版本冲突 (version conflict ignored)", false},
	{"CITATION_MISMATCH", "引用不支持声明 (a citation does not support the claim)", true},
	{"REFUSAL_OVER", "过度拒答 (refused an answerable question)", true},
	{"REFUSAL_UNDER", "应拒未拒 (answered a question that should be refused)", true},
	{"SYSTEM_TIMEOUT", "外部超时 (external timeout)", true},
	{"SYSTEM_RATE_LIMIT", "外部限流 (external rate limit)", true},
}

// KnownErrorCode reports whether code is a taxonomy code.
func KnownErrorCode(code string) bool {
	return slices.ContainsFunc(ErrorTaxonomy, func(c ErrorCode) bool { return c.Code == code })
}

// RAGError is one line of a run's errors.jsonl (seed 003 §9: 错误记录包含
// qid、运行配置、期望、实际、召回/重排列表、回答、引用、根因、严重性和修复建议):
// a reviewer's (or eval752's) attribution of one question's failure to a
// taxonomy code. Names by eval752.
type RAGError struct {
	QID               string     `json:"qid"`
	RunID             string     `json:"run_id,omitempty"`
	Code              string     `json:"code"`
	Source            string     `json:"source,omitempty"` // "derived" (eval752) or "reviewed"
	Config            any        `json:"config,omitempty"` // the run configuration (or config.yaml beside the file)
	Expected          any        `json:"expected,omitempty"`
	Actual            any        `json:"actual,omitempty"`
	RetrievedChunkIDs []string   `json:"retrieved_chunk_ids,omitempty"`
	RerankedChunkIDs  []string   `json:"reranked_chunk_ids,omitempty"`
	Answer            *string    `json:"answer,omitempty"`
	Citations         []Citation `json:"citations,omitempty"`
	RootCause         string     `json:"root_cause,omitempty"`
	Severity          string     `json:"severity,omitempty"`
	SuggestedFix      string     `json:"suggested_fix,omitempty"`
}

// RAGGrade is one line of a human-grades file (seed 003 §7's frozen grading
// protocol; format by eval752): one reviewer's grade of one run's answer to
// one question. Reviewer is the blind reviewer id; Adjudication is
// "independent" (default: a reviewer's own grade, the two §7.6 asks for)
// or "adjudicated" (the third reviewer's final grade where the two
// disagree).
type RAGGrade struct {
	QID            string `json:"qid"`
	RunID          string `json:"run_id"`
	Reviewer       string `json:"reviewer"`
	ExpertGrade    *int   `json:"expert_grade"`
	FactsSupported *int   `json:"facts_supported,omitempty"`
	FactsTotal     *int   `json:"facts_total,omitempty"`
	Adjudication   string `json:"adjudication,omitempty"`
	RubricVersion  string `json:"rubric_version,omitempty"`
	Note           string `json:"note,omitempty"`
}

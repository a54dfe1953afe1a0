package model

// Verdict is one reviewer decision on a refuse / unanswerable question of
// the refusal audit's review queue (seed 002 拒答题要审计: "标出的题必须逐条看
// 原文"), one JSON object per line of a verdict file. The page writes these
// lines; `eval752 audit` reads them back so a reviewed question is shown
// with its verdict instead of being flagged again.
type Verdict struct {
	QID      string `json:"qid"`               // the question's id (v2 id, b-2 query_id, seed-003 qid)
	Verdict  string `json:"verdict"`           // VerdictAnswerable, VerdictRefuseOK or VerdictUnsure
	Reviewer string `json:"reviewer"`          // who read the passage
	At       string `json:"at"`                // RFC 3339 time of the verdict
	Passage  string `json:"passage,omitempty"` // the passage id the reviewer read, as the queue names it
	Note     string `json:"note,omitempty"`    // why
}

// Verdict values.
const (
	VerdictAnswerable = "answerable" // the corpus answers the question: it is not a refuse question
	VerdictRefuseOK   = "refuse-ok"  // read the passages: the question is rightly a refuse question
	VerdictUnsure     = "unsure"     // read, undecided: a second reader is needed
)

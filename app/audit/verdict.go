package audit

import (
	"time"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/model"
)

// Reviewer verdicts (model.Verdict, format eval752.verdict): what a human
// decided after reading a queued question's passages. The audit reads them
// back so that the queue shows a reviewed question with its verdict and the
// threshold does not flag it again:
//
//   - refuse-ok: not flagged (no audit.refusal-similar);
//   - answerable: not flagged; audit.refusal-answerable (error) instead —
//     the set counts an answerable question as a correct refusal (seed 002's
//     R12 was "计入 5.8 的拒答率");
//   - unsure: still flagged when over the threshold (an unsure verdict is
//     not a decision; the finding names it).
//
// When several verdicts name one question the latest "at" wins (equal or
// unreadable times: the later line in load order).

var (
	ruleRefusalAnswerable = finding.Register(finding.Rule{
		Code: "audit.refusal-answerable", Severity: finding.Error, Family: "audit",
		Description: "A reviewer's recorded verdict (eval752.verdict) says a refuse / unanswerable question is answerable from the corpus.",
		Source:      "seed 002 拒答题要审计 (R12「注塑工艺参数」: 这是一道可答题，却一直被当作「正确拒答」计入拒答率; v2 把它退役)",
		Hint:        "Make the question answerable (answer and provenance from the passage the reviewer read) or retire it.",
	})
	ruleVerdictQID = finding.Register(finding.Rule{
		Code: "audit.verdict-qid", Severity: finding.Warning, Family: "audit",
		Description: "A reviewer verdict names no refuse / unanswerable question of the loaded set.",
		Source:      "docs/audit.md (review queue verdicts)",
		Hint:        "Check the qid, or load the question file the verdicts were written for.",
	})
)

// latestVerdicts maps a question id to its deciding verdict, and reports
// verdicts whose qid names no refuse question.
func latestVerdicts(ds *dataset.Dataset, qs []query) (map[string]dataset.Rec[model.Verdict], finding.List) {
	refuse := map[string]bool{}
	for _, q := range qs {
		if q.Refuse {
			refuse[q.ID] = true
		}
	}
	var out finding.List
	latest := map[string]dataset.Rec[model.Verdict]{}
	at := map[string]time.Time{}
	for _, r := range ds.Verdicts {
		switch {
		case !r.Typed || r.V.QID == "":
			continue
		case r.V.Verdict != model.VerdictAnswerable && r.V.Verdict != model.VerdictRefuseOK && r.V.Verdict != model.VerdictUnsure:
			continue // the schema reported the value (schema.enum); no decision
		}
		if !refuse[r.V.QID] {
			out = append(out, ruleVerdictQID.At(ds.Path(r.Loc), int(r.Loc.Line), "/qid", "verdict %q by %s names %q, which is not a refuse / unanswerable question of these inputs", r.V.Verdict, r.V.Reviewer, r.V.QID))
			continue
		}
		t, _ := time.Parse(time.RFC3339, r.V.At)
		if prev, ok := at[r.V.QID]; ok && t.Before(prev) {
			continue
		}
		latest[r.V.QID], at[r.V.QID] = r, t
	}
	return latest, out
}

// verdictLabel is how the queue shows a verdict.
func verdictLabel(v *dataset.Rec[model.Verdict]) string {
	if v == nil {
		return ""
	}
	s := "reviewed: " + v.V.Verdict + " (" + v.V.Reviewer
	if v.V.At != "" {
		s += ", " + v.V.At
	}
	s += ")"
	if v.V.Note != "" {
		s += " — " + v.V.Note
	}
	return s
}

package itemscore

import (
	"math"
	"strings"
	"testing"
)

// Seed 003 §7's generation figures on a folder written for them. Chunks of
// d1: c1 [0, 50), c2 [50, 150), c3 [150, 200). Groups: q1 g0 [0, 10) → c1,
// g1 [100, 110) → c2; q2 and q3 one group [0, 10) → c1. qrels (run r):
// c1 3, c2 2, c3 0 for every question.
//
//   - q1 cites c1 and c3: precision 1/2; groups covered {g0} of 2 → recall
//     1/2; complete success 0. Grades: rev-a 2 (3/4 facts), rev-b 1 (1/4),
//     no adjudication → the lower, rev-b's: pass 0, faithfulness 1/4,
//     no-evidence share 3/4, flagged unadjudicated.
//   - q2 cites c1: precision 1, recall 1, the answer "x" is right, both
//     reviewers give 3 with 4/4 facts → pass 1, faithfulness 1 → complete
//     success 1. Its prediction reports a timeout: system.error 1.
//   - q3 answers without citations: recall 0, no precision (N/A, §7.4),
//     complete success 0. rev-a 1, rev-b 2, adjudicated 2 with 2/2 facts →
//     pass 1, faithfulness 1.
//   - error rate (1 of 3): q1 0, q2 1, q3 0.
//
// Agreement (rev-a vs rev-b on q1, q2, q3): grades (2,1) (3,3) (1,2): raw
// 1/3; both raters use 1, 2, 3 once: p_e = 3·(1/3)² = 1/3 → κ = 0. Pass /
// fail (1,0) (1,1) (0,1): raw 1/3; p_e = (2/3)² + (1/3)² = 5/9 → κ =
// (1/3 − 5/9)/(4/9) = −1/2.
func TestGenerationFigures(t *testing.T) {
	q := func(id, groups string) string {
		return `{"qid": "` + id + `", "query": "question ` + id + `", "answerable": true, "reference_answer": "x", "gold_evidence_groups": [` + groups + `], "split": "test"}`
	}
	g0 := `{"required": true, "doc_id": "d1", "char_start": 0, "char_end": 10}`
	g1 := `{"required": true, "doc_id": "d1", "char_start": 100, "char_end": 110}`
	questions := strings.Join([]string{q("q1", g0+", "+g1), q("q2", g0), q("q3", g0)}, "\n") + "\n"
	chunks := `{"chunk_id": "c1", "doc_id": "d1", "char_start": 0, "char_end": 50}
{"chunk_id": "c2", "doc_id": "d1", "char_start": 50, "char_end": 150}
{"chunk_id": "c3", "doc_id": "d1", "char_start": 150, "char_end": 200}
`
	var qrels strings.Builder
	qrels.WriteString("qid 0 chunk_id relevance_grade\n")
	for _, id := range []string{"q1", "q2", "q3"} {
		qrels.WriteString(id + " 0 c1 3\n" + id + " 0 c2 2\n" + id + " 0 c3 0\n")
	}
	preds := `{"qid": "q1", "retrieved_chunk_ids": ["c1", "c2", "c3"], "answer": "x", "citations": [{"label": "S1", "chunk_id": "c1"}, {"label": "S2", "chunk_id": "c3"}]}
{"qid": "q2", "retrieved_chunk_ids": ["c1"], "answer": "x", "citations": [{"label": "S1", "chunk_id": "c1"}], "error": "upstream timeout after retry"}
{"qid": "q3", "retrieved_chunk_ids": ["c1"], "answer": "x"}
`
	grades := `{"qid": "q1", "run_id": "r", "reviewer": "rev-a", "expert_grade": 2, "facts_supported": 3, "facts_total": 4}
{"qid": "q1", "run_id": "r", "reviewer": "rev-b", "expert_grade": 1, "facts_supported": 1, "facts_total": 4}
{"qid": "q2", "run_id": "r", "reviewer": "rev-a", "expert_grade": 3, "facts_supported": 4, "facts_total": 4}
{"qid": "q2", "run_id": "r", "reviewer": "rev-b", "expert_grade": 3, "facts_supported": 4, "facts_total": 4}
{"qid": "q3", "run_id": "r", "reviewer": "rev-a", "expert_grade": 1, "facts_supported": 1, "facts_total": 2}
{"qid": "q3", "run_id": "r", "reviewer": "rev-b", "expert_grade": 2, "facts_supported": 2, "facts_total": 2}
{"qid": "q3", "run_id": "r", "reviewer": "rev-c", "expert_grade": 2, "facts_supported": 2, "facts_total": 2, "adjudication": "adjudicated"}
`
	ds := load(t,
		[2]string{"exp/eval/questions.jsonl", questions},
		[2]string{"exp/data/chunks.jsonl", chunks},
		[2]string{"exp/runs/r/qrels.tsv", qrels.String()},
		[2]string{"exp/runs/r/predictions.jsonl", preds},
		[2]string{"exp/eval/human_grades.jsonl", grades},
	)
	if len(ds.Grades) != 7 {
		t.Fatalf("grades read: %d", len(ds.Grades))
	}
	set, err := Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	r := set.Runs[runIndex(t, set, "r")]
	nan := math.NaN()
	for i, w := range []map[string]float64{
		{"citation.precision": 0.5, "citation.recall": 0.5, "complete_success": 0, "answer.expert_pass": 0, "faithfulness": 0.25, "no_evidence_share": 0.75, "system.error": 0},
		{"citation.precision": 1, "citation.recall": 1, "complete_success": 1, "answer.expert_pass": 1, "faithfulness": 1, "no_evidence_share": 0, "system.error": 1},
		{"citation.precision": nan, "citation.recall": 0, "complete_success": 0, "answer.expert_pass": 1, "faithfulness": 1, "no_evidence_share": 0, "system.error": 0},
	} {
		v := r.Items[i].Values
		for k, want := range w {
			got, ok := v.Get(k)
			switch {
			case math.IsNaN(want) && ok:
				t.Errorf("q%d %s = %v, want N/A", i+1, k, got)
			case !math.IsNaN(want) && (!ok || math.Abs(got-want) > 1e-12):
				t.Errorf("q%d %s = %v (present %v), want %v", i+1, k, got, ok, want)
			}
		}
	}
	if !strings.Contains(strings.Join(r.Items[0].Flags, ","), "unadjudicated") || strings.Contains(strings.Join(r.Items[2].Flags, ","), "unadjudicated") {
		t.Errorf("flags q1 %v q3 %v", r.Items[0].Flags, r.Items[2].Flags)
	}
	if len(set.Agreement) != 1 {
		t.Fatalf("agreement %+v", set.Agreement)
	}
	ag := set.Agreement[0]
	if ag.ReviewerA != "rev-a" || ag.ReviewerB != "rev-b" || ag.Items != 3 || ag.Others != 0 ||
		math.Abs(ag.Raw-1.0/3) > 1e-12 || math.Abs(ag.Kappa) > 1e-12 || math.Abs(ag.PassRaw-1.0/3) > 1e-12 || math.Abs(ag.PassKappa+0.5) > 1e-12 {
		t.Errorf("agreement %+v", ag)
	}
}

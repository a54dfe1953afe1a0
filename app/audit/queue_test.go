package audit

import (
	"math"
	"testing"

	"eval752/app/dataset"
	"eval752/app/model"
)

const paraphraseDir = "testdata/paraphrase"

// paraphraseLabel is one line of testdata/paraphrase/labels.jsonl: the
// planted truth, written with the questions and before the signals were
// measured on them (see its README).
type paraphraseLabel struct {
	QID        string  `json:"qid"`
	Answerable bool    `json:"answerable"`
	Doc        *string `json:"doc"`
}

func paraphraseFixture(t *testing.T) (*dataset.Dataset, map[string]paraphraseLabel) {
	return labelledFixture(t, paraphraseDir)
}

func labelledFixture(t *testing.T, paraphraseDir string) (*dataset.Dataset, map[string]paraphraseLabel) {
	t.Helper()
	ds := &dataset.Dataset{Has: map[model.Format]bool{model.FormatV2Question: true, model.FormatClause: true}}
	ds.V2 = readJSONL[model.V2Question](t, paraphraseDir+"/questions.jsonl")
	ds.Clauses = readJSONL[model.Clause](t, paraphraseDir+"/clauses.jsonl")
	labels := map[string]paraphraseLabel{}
	for _, r := range readJSONL[paraphraseLabel](t, paraphraseDir+"/labels.jsonl") {
		labels[r.V.QID] = r.V
	}
	return ds, labels
}

// recallAt is the share of the planted answerable questions among the first
// ⌈budget·n⌉ rows of a ranking of n questions.
func recallAt(rows []refusalRow, labels map[string]paraphraseLabel, budget float64) (float64, int) {
	k := int(math.Ceil(budget * float64(len(rows))))
	planted, hit := 0, 0
	for i, r := range rows {
		if !labels[r.Q.ID].Answerable {
			continue
		}
		planted++
		if i < k {
			hit++
		}
	}
	return float64(hit) / float64(planted), k
}

// depthAll is the share of the ranking a reviewer reads to reach every
// planted answerable question.
func depthAll(rows []refusalRow, labels map[string]paraphraseLabel) float64 {
	last := 0
	for i, r := range rows {
		if labels[r.Q.ID].Answerable {
			last = i + 1
		}
	}
	return float64(last) / float64(len(rows))
}

// TestParaphraseRecall holds the review queue's gain on the planted
// paraphrases: 7 of the fixture's 35 refuse questions are answerable by a
// passage that words the topic differently (labels.jsonl). A reviewer with a
// budget of 20 % of the queue reads ⌈0.2·35⌉ = 7 questions. Figures measured
// when the queue was written (docs/audit.md): ranking by the threshold's
// similarity alone finds 1 of 7 in the first 7 rows (R22 at 6th) and needs
// 34 of 35 rows to reach all seven; the fused queue finds 2 of 7 (R30 3rd,
// R22 6th) and needs 33 of 35. The floors are those counts.
func TestParaphraseRecall(t *testing.T) {
	ds, labels := paraphraseFixture(t)
	planted := 0
	for _, l := range labels {
		if l.Answerable {
			planted++
		}
	}
	if len(labels) != 35 || planted != 7 {
		t.Fatalf("fixture: %d refuse questions, %d planted; README says 35 and 7", len(labels), planted)
	}
	res, _ := refusalAudit(withFiles(ds), queries(withFiles(ds)), corpusPassages(withFiles(ds)), DefaultOptions().withDefaults())
	if len(res.Queue) != 35 || len(res.Refuse) != 35 {
		t.Fatalf("queue %d rows, ranking %d; want 35", len(res.Queue), len(res.Refuse))
	}
	before, k := recallAt(res.Refuse, labels, 0.2)
	after, _ := recallAt(res.Queue, labels, 0.2)
	if k != 7 {
		t.Fatalf("budget %d rows, want ⌈0.2·35⌉ = 7", k)
	}
	if after < 2.0/7 || after <= before {
		t.Errorf("recall@20%%: queue %.3f (floor 2/7), similarity ranking %.3f", after, before)
	}
	if d, d0 := depthAll(res.Queue, labels), depthAll(res.Refuse, labels); d > 33.0/35 || d > d0 {
		t.Errorf("rows read to reach every planted question: queue %.3f (floor 33/35), similarity ranking %.3f", d, d0)
	}
	// a larger budget: 40 % = 14 rows; similarity 3 of 7, the queue 5 of 7
	if b, a := recallAtPair(res, labels, 0.4); a < 5.0/7 || a < b {
		t.Errorf("recall@40%%: queue %.3f (floor 5/7), similarity ranking %.3f", a, b)
	}
	for i, r := range res.Queue {
		t.Logf("%2d %s planted=%v fused %.4f signals %.3f", i+1, r.Q.ID, labels[r.Q.ID].Answerable, r.Fused, r.Signals)
	}
}

func recallAtPair(res refusalResult, labels map[string]paraphraseLabel, budget float64) (before, after float64) {
	before, _ = recallAt(res.Refuse, labels, budget)
	after, _ = recallAt(res.Queue, labels, budget)
	return before, after
}

// TestParaphraseRecallHeldOut measures the queue on testdata/paraphrase2,
// written after the signals and the fusion rule were fixed and never used
// to choose them (its README): 30 refuse questions, 6 planted. Figures
// measured then: at 20 % (6 rows) both rankings find 1 of 6 (S24); at 40 %
// (12 rows) both find 2 of 6; at 60 % (18 rows) similarity finds 3 of 6,
// the queue 4 of 6. The floors are those counts: on a second fixture the
// queue's gain shows only at the larger budget.
func TestParaphraseRecallHeldOut(t *testing.T) {
	ds, labels := labelledFixture(t, "testdata/paraphrase2")
	planted := 0
	for _, l := range labels {
		if l.Answerable {
			planted++
		}
	}
	if len(labels) != 30 || planted != 6 {
		t.Fatalf("fixture: %d refuse questions, %d planted; README says 30 and 6", len(labels), planted)
	}
	res, _ := refusalAudit(withFiles(ds), queries(withFiles(ds)), corpusPassages(withFiles(ds)), DefaultOptions().withDefaults())
	for _, c := range []struct {
		budget float64
		floor  float64
	}{{0.2, 1.0 / 6}, {0.4, 2.0 / 6}, {0.6, 4.0 / 6}} {
		b, a := recallAtPair(res, labels, c.budget)
		if a < c.floor || a < b {
			t.Errorf("recall@%.0f%%: queue %.3f (floor %.3f), similarity ranking %.3f", 100*c.budget, a, c.floor, b)
		}
	}
}

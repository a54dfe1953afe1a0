package metrics

import (
	"math"
	"slices"
	"strconv"
	"testing"
)

const eps = 1e-12

func lg(x float64) float64 { return math.Log2(x) }

// gradedQuery is a seed-003-style item (grades 0–3, relevant = grade ≥ 2):
//
//	rank  id  judged grade  gold group
//	1     c1  yes    0      -
//	2     c2  yes    2      1
//	3     c3  yes    1      -
//	4     c4  NO     -      -
//	5     c5  yes    3      0
//
// The run-specific qrels hold grades ≥1: 3 (c5), 2 (c2), 1 (c3) and one
// unretrieved 3; grade 0: c1 and one unretrieved unit (NonRel = 2).
// Three gold groups, groups 0 and 1 required.
func gradedQuery() *Query {
	return &Query{
		Ranked: []Candidate{
			{ID: "c1", Judged: true, Grade: 0},
			{ID: "c2", Judged: true, Grade: 2, Gold: []int{1}},
			{ID: "c3", Judged: true, Grade: 1},
			{ID: "c4"},
			{ID: "c5", Judged: true, Grade: 3, Gold: []int{0}},
		},
		NumGold:  3,
		Required: []int{0, 1},
		RelLevel: 2,
		Rel:      []int{3, 2, 1, 3},
		NonRel:   2,
	}
}

func TestRetrievalGraded(t *testing.T) {
	q := gradedQuery()
	cases := []struct {
		metric string
		want   float64
		why    string
	}{
		{"hit@1", 0, "c1 has grade 0 < 2"},
		{"hit@2", 1, "c2 has grade 2"},
		{"mrr", 0.5, "first grade ≥ 2 at rank 2"},
		{"mrr@1", 0, "nothing relevant in the top 1"},
		{"mrr@10", 0.5, "rank 2 ≤ 10"},
		{"ndcg@3", (2/lg(3) + 1/lg(4)) / (3 + 3/lg(3) + 2/lg(4)),
			"DCG = 0/1 + 2/log2 3 + 1/log2 4; ideal 3,3,2 → IDCG = 3 + 3/log2 3 + 2/log2 4"},
		{"ndcg@5", (2/lg(3) + 1/lg(4) + 3/lg(6)) / (3 + 3/lg(3) + 2/lg(4) + 1/lg(5)),
			"unjudged c4 at rank 4 gains 0; c5 adds 3/log2 6; ideal 3,3,2,1"},
		{"ndcg", (2/lg(3) + 1/lg(4) + 3/lg(6)) / (3 + 3/lg(3) + 2/lg(4) + 1/lg(5)),
			"whole ranking = @5 here (5 retrieved, 4 ideal grades)"},
		{"p@5", 2.0 / 5, "c2, c5 relevant"},
		{"p@10", 2.0 / 10, "trec_eval P: the denominator stays k"},
		{"map", (1.0/2 + 2.0/5) / 3, "R = 3 (grades 3,2,3); precisions 1/2 at rank 2, 2/5 at rank 5"},
		{"rprec", 1.0 / 3, "top R=3 holds c2 only"},
		{"bpref", (1 - 1.0/3 + 1 - 2.0/3) / 3,
			"R=3, N = 2 + 1 (grade 1 < 2) = 3; c2 after 1 nonrel: 1−1/3; c3 nonrel; c4 skipped; c5 after 2: 1−2/3"},
		{"judged@3", 1, "c1..c3 judged"},
		{"judged@5", 4.0 / 5, "c4 unjudged"},
		{"judged@10", 4.0 / 5, "only 5 retrieved: 4/5"},
		{"recall@2", 1.0 / 3, "gold coverage: group 1 of 3"},
		{"recall@5", 2.0 / 3, "groups 0 and 1 of 3"},
		{"complete_hit@2", 0, "required group 0 not yet covered"},
		{"complete_hit@5", 1, "required groups 0 and 1 covered"},
		{"evidence_group_recall@2", 1.0 / 2, "1 of 2 required groups"},
		{"evidence_group_recall@5", 1, "2 of 2"},
	}
	for _, c := range cases {
		d, err := Parse(c.metric)
		if err != nil {
			t.Fatalf("%s: %v", c.metric, err)
		}
		got, ok := Compute(d, q)
		if !ok || math.Abs(got-c.want) > eps {
			t.Errorf("%s = %v, want %v (%s)", c.metric, got, c.want, c.why)
		}
	}
	if n := Unjudged(q, 5); n != 1 {
		t.Errorf("Unjudged@5 = %d, want 1 (c4)", n)
	}
	if n := Unjudged(q, 3); n != 0 {
		t.Errorf("Unjudged@3 = %d, want 0", n)
	}
}

// TestRetrievalBinary: b-2 binary relevance (gold atom = grade 1), ranking
// x g1 y g2 with 3 gold atoms in the qrels and 10 other atoms judged 0.
func TestRetrievalBinary(t *testing.T) {
	q := &Query{
		Ranked: []Candidate{
			{ID: "x", Judged: true},
			{ID: "g1", Judged: true, Grade: 1, Gold: []int{0}},
			{ID: "y", Judged: true},
			{ID: "g2", Judged: true, Grade: 1, Gold: []int{0, 1}},
		},
		NumGold: 2, RelLevel: 1, Rel: []int{1, 1, 1}, NonRel: 10,
	}
	cases := []struct {
		metric string
		want   float64
		why    string
	}{
		{"ndcg@4", (1/lg(3) + 1/lg(5)) / (1 + 1/lg(3) + 1/lg(4)), "gains at ranks 2, 4; ideal three 1s"},
		{"ndcg@1", 0, "x is not gold"},
		{"recall@2", 1.0 / 2, "g1 covers gold entry 0 of 2"},
		{"recall@4", 1, "g2 covers entry 1"},
		{"hit@1", 0, "x not gold"},
		{"hit@2", 1, "g1"},
		{"mrr", 0.5, "first gold at rank 2"},
		{"map", (1.0/2 + 2.0/4) / 3, "R = 3; precisions 1/2, 2/4"},
		{"rprec", 1.0 / 3, "top 3: g1"},
		{"bpref", (1 - 1.0/3 + 1 - 2.0/3) / 3, "R=3, N=10, min=3; g1 after 1 nonrel, g2 after 2"},
	}
	for _, c := range cases {
		d, _ := Parse(c.metric)
		if got, _ := Compute(d, q); math.Abs(got-c.want) > eps {
			t.Errorf("%s = %v, want %v (%s)", c.metric, got, c.want, c.why)
		}
	}
}

// TestEmpty: nothing retrieved, nothing relevant: every measure is 0 except
// judged@k, which is 1 (nothing unjudged), as trec_eval gives 0 for R = 0.
func TestEmpty(t *testing.T) {
	q := &Query{RelLevel: 1}
	for _, d := range Registry() {
		got, ok := Compute(d, q)
		if !ok {
			continue
		}
		want := 0.0
		switch d.Family {
		case "judged", "temporal_correctness", "holder_correctness":
			want = 1
		}
		if got != want {
			t.Errorf("%s on an empty query = %v, want %v", d.Name, got, want)
		}
	}
}

func TestSafety(t *testing.T) {
	q := &Query{Ranked: []Candidate{
		{ID: "a"},
		{ID: "b", Future: true},
		{ID: "c", Strong: true, OtherHolder: true},
	}}
	cases := []struct {
		metric string
		want   float64
	}{
		{"false_recall@2", 0},         // no strong candidate in the top 2
		{"false_recall@3", 1},         // c is strong
		{"temporal_correctness@1", 1}, // a is not from the future
		{"temporal_correctness@2", 0}, // b is
		{"holder_correctness@2", 1},
		{"holder_correctness@3", 0}, // c belongs to another holder
	}
	for _, c := range cases {
		d, _ := Parse(c.metric)
		if got, _ := Compute(d, q); got != c.want {
			t.Errorf("%s = %v, want %v", c.metric, got, c.want)
		}
	}
	q.Abstained = true
	d, _ := Parse("false_recall@3")
	if got, _ := Compute(d, q); got != 0 {
		t.Errorf("false_recall@3 after abstaining = %v, want 0", got)
	}
}

// TestCanonicalize uses the tie order of SEMANTICS.md (trec_eval's
// comp_sim_docno: strcmp descending): doca > docA > doc9 > doc3 > doc20 >
// doc2 > doc11 > doc10 > doc1 > DOC5, after higher scores.
func TestCanonicalize(t *testing.T) {
	ids := []string{"doc1", "DOC5", "doc20", "docA", "doc10", "doc3", "doca", "doc11", "doc9", "doc2"}
	var cs []Candidate
	for _, id := range ids {
		cs = append(cs, Candidate{ID: id, Score: 1, HasScore: true})
	}
	cs = append(cs, Candidate{ID: "top", Score: 2, HasScore: true}, Candidate{ID: "low", Score: -1e-300, HasScore: true})
	got := Canonicalize(cs)
	var order []string
	for _, c := range got {
		order = append(order, c.ID)
	}
	want := []string{"top", "doca", "docA", "doc9", "doc3", "doc20", "doc2", "doc11", "doc10", "doc1", "DOC5", "low"}
	if !slices.Equal(order, want) {
		t.Errorf("order = %v\nwant    %v", order, want)
	}
	// Without scores the list order is the rank.
	plain := []Candidate{{ID: "b"}, {ID: "a"}, {ID: "c", Score: 9, HasScore: true}}
	if got := Canonicalize(plain); got[0].ID != "b" || got[1].ID != "a" || got[2].ID != "c" {
		t.Errorf("unscored list reordered: %v", got)
	}
}

func TestParse(t *testing.T) {
	good := []struct {
		spec      string
		name      string
		k         int
		threshold string
	}{
		{"ndcg@10", "ndcg@10", 10, ">=0.65"},
		{"ndcg", "ndcg", 0, ""},
		{"mrr", "mrr", 0, ""},
		{"mrr@10", "mrr@10", 10, ">=0.6"},
		{"recall@10", "recall@10", 10, ">=0.9"},
		{"recall@5", "recall@5", 5, ""},
		{"hit@50", "hit@50", 50, ">=0.93"},
		{"complete_hit@20", "complete_hit@20", 20, ">=0.7"},
		{"evidence_group_recall@20", "evidence_group_recall@20", 20, ">=0.85"},
		{"false_recall@10", "false_recall@10", 10, "<=0.1"},
		{"temporal_correctness@10", "temporal_correctness@10", 10, ">=0.95"},
		{"answer.exact", "answer.exact", 0, ""},
		{"refusal.f1", "refusal.f1", 0, ">=0.85"},
		{" map ", "map", 0, ""},
	}
	for _, g := range good {
		d, err := Parse(g.spec)
		if err != nil {
			t.Errorf("Parse(%q): %v", g.spec, err)
			continue
		}
		th := ""
		if d.Threshold != nil {
			th = d.Threshold.Op + formatF(d.Threshold.Value)
		}
		if d.Name != g.name || d.K != g.k || th != g.threshold {
			t.Errorf("Parse(%q) = %s k=%d threshold %q, want %s k=%d %q", g.spec, d.Name, d.K, th, g.name, g.k, g.threshold)
		}
	}
	for _, bad := range []string{"", "foo", "map@10", "hit", "hit@0", "hit@-1", "hit@05", "hit@x", "ndcg@10@2", "answer.exact@1"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", bad)
		}
	}
	if d, _ := Parse("false_recall@10"); d.HigherIsBetter || !d.Binary {
		t.Error("false_recall must be lower-is-better and binary")
	}
}

func formatF(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// TestRegistry: names are unique, every descriptor is documented and parses
// back to itself.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range Registry() {
		if seen[d.Name] {
			t.Errorf("duplicate %s", d.Name)
		}
		seen[d.Name] = true
		if d.Help == "" || d.Formula == "" || d.Source == "" || d.Group == "" {
			t.Errorf("%s is missing help, formula, source or group", d.Name)
		}
		p, err := Parse(d.Name)
		if err != nil || p.Name != d.Name || p.K != d.K || p.Family != d.Family {
			t.Errorf("Parse(%s) = %+v, %v", d.Name, p, err)
		}
	}
	for _, want := range []string{"recall@10", "hit@20", "mrr", "mrr@10", "ndcg@10", "p@5", "map", "rprec", "bpref", "judged@10",
		"false_recall@10", "holder_correctness@10", "answer.correct", "refusal.tp", "latency_ms"} {
		if !seen[want] {
			t.Errorf("registry lacks %s", want)
		}
	}
}

// TestSeedDefinitions pins the seed definitions on tiny hand cases.
//
// Seed 003 §7: Hit@K and MRR@K count only evidence of grade ≥ 2; nDCG@K
// uses the full 0–3 grades with the ideal list from every judged grade
// (retrieved or not). Ranking: b (grade 1) then a (grade 3); qrels grades
// ≥ 1: 3 (a), 1 (b), 2 (an unretrieved chunk).
//
// Seed 000 §4: recall@k is gold coverage. One gold page split into five
// atoms p1..p5 (gold entry 0), a second gold entry q (entry 1); the run
// retrieves p3 only: coverage 1/2, where trec_eval's recall_k would give
// 1/6 (1 relevant of R = 6 atoms).
func TestSeedDefinitions(t *testing.T) {
	graded := &Query{
		Ranked: []Candidate{
			{ID: "b", Judged: true, Grade: 1},
			{ID: "a", Judged: true, Grade: 3, Gold: []int{0}},
		},
		NumGold: 1, RelLevel: 2, Rel: []int{3, 1, 2},
	}
	split := &Query{
		Ranked:  []Candidate{{ID: "x", Judged: true}, {ID: "p3", Judged: true, Grade: 1, Gold: []int{0}}},
		NumGold: 2, RelLevel: 1, Rel: []int{1, 1, 1, 1, 1, 1}, NonRel: 20,
	}
	for _, c := range []struct {
		q      *Query
		metric string
		want   float64
		why    string
	}{
		{graded, "hit@1", 0, "b has grade 1 < 2: not a hit (seed 003 §7 等级 ≥ 2)"},
		{graded, "hit@2", 1, "a has grade 3"},
		{graded, "mrr@10", 0.5, "first grade ≥ 2 at rank 2: 1/2"},
		{graded, "ndcg@1", 1.0 / 3, "DCG@1 = 1/log2 2 = 1 (grade 1 gains 1); IDCG@1 = 3 (best judged grade)"},
		{graded, "ndcg@2", (1 + 3/lg(3)) / (3 + 2/lg(3)),
			"DCG = 1 + 3/log2 3 = 2.8928; ideal 3, 2 (the unretrieved grade 2 counts): IDCG = 3 + 2/log2 3 = 4.2619; 0.6788"},
		{split, "recall@1", 0, "x is not gold"},
		{split, "recall@2", 1.0 / 2, "entry 0 covered by any one of its atoms (p3); entry 1 not: 1/2"},
		{split, "hit@2", 1, "p3 is a gold atom"},
	} {
		d, err := Parse(c.metric)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := Compute(d, c.q); math.Abs(got-c.want) > eps {
			t.Errorf("%s = %v, want %v (%s)", c.metric, got, c.want, c.why)
		}
	}
}

package metrics

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAgainstTrecEval checks the trec_eval-named measures against trec_eval
// v10.0's own per-query output (testdata/trec/*/expected_hp*.tsv, copied
// from the shared reference; see cmd.txt in each folder). Each query becomes
// a Query the way itemscore builds one from run-specific qrels:
//
//   - a run doc in the qrels with grade ≥ 0 is judged with that grade; a doc
//     absent from the qrels or with a negative grade is unjudged;
//   - Rel = every qrels grade ≥ 1, NonRel = the grade-0 count;
//   - every qrels doc with grade ≥ L is its own gold entry, so gold
//     coverage (recall@k) equals trec_eval's recall_k.
//
// The expected values are trec_eval's full-precision output, compared within 1e-9.
func TestAgainstTrecEval(t *testing.T) {
	cases := []struct {
		dir, expected string
		level         int
	}{
		{"a_binary", "expected_hp.tsv", 1},
		{"b_graded", "expected_hp.tsv", 1},
		{"b_graded", "expected_hp_l2.tsv", 2},
		{"c_ties", "expected_hp.tsv", 1},
		{"h_short_runs", "expected_hp.tsv", 1},
	}
	names := map[string]string{
		"recip_rank": "mrr", "map": "map", "Rprec": "rprec", "bpref": "bpref", "ndcg": "ndcg",
	}
	for _, c := range cases {
		dir := filepath.Join("testdata", "trec", c.dir)
		qrels := readQrels(t, filepath.Join(dir, "qrels"))
		run := readRun(t, filepath.Join(dir, "run"))
		checked := 0
		for _, row := range readTSV(t, filepath.Join(dir, c.expected)) {
			measure, qid, valText := row[0], row[1], row[2]
			if qid == "all" {
				continue
			}
			spec, ok := names[measure]
			if !ok {
				base, k, found := strings.Cut(measure, "_")
				switch {
				case base == "P" && found:
					spec = "p@" + k
				case base == "recall" && found:
					spec = "recall@" + k
				case base == "success" && found:
					spec = "hit@" + k
				case measure[:min(len(measure), 9)] == "ndcg_cut_":
					spec = "ndcg@" + strings.TrimPrefix(measure, "ndcg_cut_")
				default:
					continue
				}
			}
			d, err := Parse(spec)
			if err != nil {
				t.Fatalf("%s: %v", spec, err)
			}
			want, _ := strconv.ParseFloat(valText, 64)
			q := trecQuery(qrels[qid], run[qid], c.level)
			got, _ := Compute(d, q)
			if math.Abs(got-want) > 1e-9 {
				t.Errorf("%s/%s: %s qid %s = %.17g, trec_eval %s", c.dir, c.expected, measure, qid, got, valText)
			}
			checked++
		}
		if checked < 50 {
			t.Errorf("%s/%s: only %d values checked", c.dir, c.expected, checked)
		}
	}
}

type trecDoc struct {
	id    string
	score float64
}

func trecQuery(qrels map[string]int, docs []trecDoc, level int) *Query {
	q := &Query{RelLevel: level}
	gold := map[string]int{}
	ids := make([]string, 0, len(qrels))
	for id := range qrels {
		ids = append(ids, id)
	}
	// stable gold numbering
	sortStrings(ids)
	for _, id := range ids {
		g := qrels[id]
		switch {
		case g >= 1:
			q.Rel = append(q.Rel, g)
		case g == 0:
			q.NonRel++
		}
		if g >= level {
			gold[id] = q.NumGold
			q.NumGold++
		}
	}
	var cands []Candidate
	for _, d := range docs {
		c := Candidate{ID: d.id, Score: d.score, HasScore: true}
		if g, ok := qrels[d.id]; ok && g >= 0 {
			c.Judged, c.Grade = true, g
		}
		if gi, ok := gold[d.id]; ok {
			c.Gold = []int{gi}
		}
		cands = append(cands, c)
	}
	q.Ranked = Canonicalize(cands)
	return q
}

func sortStrings(xs []string) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

func lines(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		out = append(out, strings.Fields(line))
	}
	return out
}

func readTSV(t *testing.T, path string) [][]string {
	rows := lines(t, path)
	if len(rows) > 0 && rows[0][0] == "measure" {
		rows = rows[1:]
	}
	return rows
}

func readQrels(t *testing.T, path string) map[string]map[string]int {
	m := map[string]map[string]int{}
	for _, f := range lines(t, path) {
		g, err := strconv.Atoi(f[3])
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if m[f[0]] == nil {
			m[f[0]] = map[string]int{}
		}
		m[f[0]][f[2]] = g
	}
	return m
}

func readRun(t *testing.T, path string) map[string][]trecDoc {
	m := map[string][]trecDoc{}
	for _, f := range lines(t, path) {
		s, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		m[f[0]] = append(m[f[0]], trecDoc{f[2], s})
	}
	return m
}

package itemscore

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/model"
)

// load reads named inputs (name → bytes) with dataset.Load, as the CLI does.
func load(t *testing.T, files ...[2]string) *dataset.Dataset {
	t.Helper()
	var ins []dataset.Input
	for _, f := range files {
		b := []byte(f[1])
		ins = append(ins, dataset.Input{Name: f[0], R: bytes.NewReader(b), Size: int64(len(b))})
	}
	ds, err := dataset.Load(context.Background(), ins, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func unitIndex(t *testing.T, set *Set, id string) int {
	t.Helper()
	i := slices.IndexFunc(set.Units, func(u Unit) bool { return u.ID == id })
	if i < 0 {
		t.Fatalf("unit %s not found in %+v", id, set.Units)
	}
	return i
}

func runIndex(t *testing.T, set *Set, name string) int {
	t.Helper()
	i := slices.IndexFunc(set.Runs, func(r RunScores) bool { return r.Run == name })
	if i < 0 {
		t.Fatalf("run %s not found", name)
	}
	return i
}

// TestChunkQrelsSeed003 is seed 003's own layout, side by side: questions.jsonl
// (§4.3), a run's predictions.jsonl (§6.2) and that run's qrels.tsv (§10,
// header `qid 0 chunk_id relevance_grade`), with no chunks.jsonl. The qrels
// are the questions' chunk-level judgments, not separate TREC units.
//
//	qrels: q_test_0042 chk_a 3, chk_x 1; q001 chk_b 1, chk_c 3
//	predictions (final = reranked when present, scores order it):
//	  q_test_0042 reranked [chk_a 0.95, chk_x 0.5]; retrieved [chk_x 0.9, chk_a 0.8]
//	  q001 retrieved [chk_b, chk_c] (no scores: list order)
//	  q002 unanswerable, retrieved [chk_z 0.3], answers 「资料中没有相关信息」
func TestChunkQrelsSeed003(t *testing.T) {
	dir := filepath.Join("testdata", "s3")
	ds := load(t,
		[2]string{"questions.jsonl", readFile(t, filepath.Join(dir, "questions.jsonl"))},
		[2]string{"predictions.jsonl", readFile(t, filepath.Join(dir, "predictions.jsonl"))},
		[2]string{"qrels.tsv", readFile(t, filepath.Join(dir, "qrels.tsv"))},
	)
	opt := DefaultOptions()
	opt.Cutoffs = []int{1, 2, 10}
	set, err := Score(withFiles(ds), opt)
	if err != nil {
		t.Fatal(err)
	}
	// 3 seed-003 questions; the qrels qids are those questions: no trec unit.
	if len(set.Units) != 3 {
		t.Fatalf("units = %+v, want the 3 questions only", set.Units)
	}
	for _, u := range set.Units {
		if u.Set != "rag" {
			t.Errorf("unit %s set %s, want rag", u.ID, u.Set)
		}
	}
	if len(set.Runs) != 2 || set.Runs[0].Run != "predictions" || set.Runs[1].Run != "predictions.retrieve" {
		t.Fatalf("runs %+v", set.Runs)
	}
	q42, q1, q2 := unitIndex(t, set, "q_test_0042"), unitIndex(t, set, "q001"), unitIndex(t, set, "q002")
	// ndcg of [grade 1, grade 3] against the ideal [3, 1]:
	// (1/log2 2 + 3/log2 3) / (3/log2 2 + 1/log2 3) = 0.7967.
	swapped := (1 + 3/lg(3)) / (3 + 1/lg(3))
	cases := []struct {
		run, label string
		unit       int
		ws         []want
	}{
		{"predictions", "q_test_0042 reranked [chk_a(3), chk_x(1)]", q42, []want{
			{"hit@1", 1, "chk_a grade 3 ≥ 2 at rank 1"},
			{"mrr", 1, "first grade ≥ 2 at rank 1"},
			{"ndcg@2", 1, "(3/log2 2 + 1/log2 3) / (3 + 1/log2 3) = 1"},
			{"p@2", 1.0 / 2, "one of two ≥ 2"},
			{"map", 1, "R = 1 (chk_a), precision 1/1 at rank 1"},
			{"judged@2", 1, "both chunks in the qrels"},
		}},
		{"predictions.retrieve", "q_test_0042 retrieved [chk_x(1), chk_a(3)]", q42, []want{
			{"hit@1", 0, "chk_x grade 1 < 2"},
			{"hit@2", 1, "chk_a at rank 2"},
			{"mrr", 1.0 / 2, "first grade ≥ 2 at rank 2"},
			{"ndcg@2", swapped, "(1 + 3/log2 3) / (3 + 1/log2 3)"},
			{"map", 1.0 / 2, "R = 1, precision 1/2 at rank 2"},
		}},
		{"predictions", "q001 [chk_b(1), chk_c(3)] (list order)", q1, []want{
			{"hit@1", 0, "grade 1"},
			{"mrr", 1.0 / 2, "chk_c at rank 2"},
			{"ndcg@2", swapped, "same grades as the retrieve list of q_test_0042"},
		}},
		{"predictions", "q002 unanswerable", q2, []want{
			{"false_recall@10", 0, "chk_z scores 0.3 < 0.65: no strong evidence"},
			{"refusal.tp", 1, "「资料中没有相关信息」 is a refusal of a should-refuse item"},
		}},
	}
	for _, c := range cases {
		it := set.Runs[runIndex(t, set, c.run)].Items[c.unit]
		check(t, c.run+" "+c.label, it, c.ws)
		if c.unit != q2 {
			// No chunks.jsonl: the groups cannot be resolved, so their
			// metrics are not applicable (not 0 with "ambiguous gold").
			absent(t, c.label, it, "recall@1", "recall@10", "complete_hit@10", "evidence_group_recall@10")
			if it.Unjudged != 0 || len(it.Flags) != 0 {
				t.Errorf("%s %s: flags %v unjudged %d, want none", c.run, c.label, it.Flags, it.Unjudged)
			}
		} else {
			absent(t, c.label, it, "hit@1", "mrr", "ndcg@2")
		}
	}
	if len(set.Ambiguities) != 0 {
		t.Errorf("ambiguities %+v, want none (no chunk table is not a resolution problem when qrels grade the chunks)", set.Ambiguities)
	}
	// One note per run.
	if len(set.Notes) != 2 || set.Notes[0].Run != "predictions" || set.Notes[1].Run != "predictions.retrieve" ||
		!strings.Contains(set.Notes[0].Text, "evidence groups not resolved: no chunks.jsonl") {
		t.Errorf("notes %+v", set.Notes)
	}
}

// TestChunkQrelsMaxWithAnchors: with a chunk table, the gold group resolves
// (chk_a on p.34 → grade 3) and the qrels add grades; a chunk graded by both
// takes the higher grade.
//
//	chunks: chk_a (p.34), chk_x (p.35), chk_y (p.36); gold group: doc p.34
//	qrels: chk_a 1, chk_x 2, chk_y 0 → grades chk_a max(3, 1) = 3, chk_x 2, chk_y 0
//	ranking (list order): chk_y, chk_x, chk_a, chk_q (not judged anywhere)
func TestChunkQrelsMaxWithAnchors(t *testing.T) {
	ch := func(id string, p int) dataset.Rec[model.RAGChunk] {
		return rec(model.RAGChunk{ChunkID: id, DocID: "doc", PageNo: ip(p)})
	}
	ds := &dataset.Dataset{
		RAG: []dataset.Rec[model.RAGQuestion]{rec(model.RAGQuestion{QID: "q", Query: "?", Answerable: true,
			GoldEvidenceGroups: []model.EvidenceAnchor{{DocID: "doc", PageNo: ip(34)}}})},
		Chunks: []dataset.Rec[model.RAGChunk]{ch("chk_a", 34), ch("chk_x", 35), ch("chk_y", 36)},
		Qrels: []dataset.QrelsFile{{Path: "corpus/qrels.tsv", Judgments: []dataset.Qrel{
			{Line: 2, QID: "q", DocNo: "chk_a", Grade: 1}, {Line: 3, QID: "q", DocNo: "chk_x", Grade: 2}, {Line: 4, QID: "q", DocNo: "chk_y", Grade: 0},
		}}},
		Preds: []dataset.Rec[model.RAGPrediction]{{Loc: testFiles.At("runs/r/predictions.jsonl", 1, 0), Typed: true,
			V: model.RAGPrediction{QID: "q", RetrievedChunkIDs: []string{"chk_y", "chk_x", "chk_a", "chk_q"}}}},
	}
	opt := DefaultOptions()
	opt.Cutoffs = []int{1, 3, 10}
	set, err := Score(withFiles(ds), opt)
	if err != nil {
		t.Fatal(err)
	}
	it := set.Runs[0].Items[0]
	check(t, "r", it, []want{
		{"hit@1", 0, "chk_y grade 0"},
		{"mrr", 1.0 / 2, "chk_x grade 2 at rank 2"},
		{"recall@3", 1, "the group (chk_a) is in the top 3: chunk table present, so gold coverage applies"},
		{"ndcg@3", (2/lg(3) + 3/lg(4)) / (3 + 2/lg(3)), "gains 0, 2, 3; ideal 3, 2 (chk_a's grade is max(3, 1))"},
		{"map", (1.0/2 + 2.0/3) / 2, "R = 2 (chk_a, chk_x); precisions 1/2, 2/3"},
		{"judged@10", 3.0 / 4, "chk_q is in no qrels and no anchor"},
	})
	if it.Unjudged != 1 || !slices.Contains(it.Flags, "unjudged") || slices.Contains(it.Flags, "ambiguous-gold") {
		t.Errorf("flags %v unjudged %d, want unjudged 1 and no ambiguous-gold", it.Flags, it.Unjudged)
	}
	// chk_q is not in chunks.jsonl either: the run names a chunk that
	// does not exist
	if !slices.Contains(it.Flags, "unknown-id") {
		t.Errorf("flags %v, want unknown-id (chk_q is not in the chunk table)", it.Flags)
	}
	if len(set.Notes) != 0 {
		t.Errorf("notes %+v, want none (groups resolved)", set.Notes)
	}
}

// zipOf builds an in-memory zip of name → content.
func zipOf(t *testing.T, files ...[2]string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		w, err := zw.Create(f[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(f[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestChunkQrelsBundleScope: a bundle with runs/a/{predictions.jsonl,
// qrels.tsv} and runs/b/predictions.jsonl. The qrels of runs/a/ apply to run
// a and a.retrieve only; run b is scored as before (no chunk table, no
// qrels: the groups do not resolve — 0 with "ambiguous gold" and unjudged
// chunks). A top-level qrels.tsv then applies to every run.
//
//	q_test_0042 (one gold group, doc_demo_001 p.34; no chunks.jsonl)
//	runs/a/qrels.tsv: chk_a 3, chk_x 1
//	run a: reranked [chk_a, chk_x], retrieved [chk_x, chk_a] (list order)
//	run b: retrieved [chk_a, chk_x]
//	top-level qrels.tsv (second case): chk_a 2
func TestChunkQrelsBundleScope(t *testing.T) {
	q := `{"qid": "q_test_0042", "query": "铜品位?", "answerable": true, "reference_answer": "0.86%", "gold_evidence_groups": [{"doc_id": "doc_demo_001", "page_no": 34}], "split": "test"}` + "\n"
	bundle := zipOf(t,
		[2]string{"sections/questions.jsonl", q},
		[2]string{"runs/a/predictions.jsonl", `{"qid": "q_test_0042", "retrieved_chunk_ids": ["chk_x", "chk_a"], "reranked_chunk_ids": ["chk_a", "chk_x"], "answer": "0.86%"}` + "\n"},
		[2]string{"runs/a/qrels.tsv", "qid 0 chunk_id relevance_grade\nq_test_0042 0 chk_a 3\nq_test_0042 0 chk_x 1\n"},
		[2]string{"runs/b/predictions.jsonl", `{"qid": "q_test_0042", "retrieved_chunk_ids": ["chk_a", "chk_x"], "answer": "0.86%"}` + "\n"},
	)
	opt := DefaultOptions()
	opt.Cutoffs = []int{1, 2}

	t.Run("run-scoped", func(t *testing.T) {
		ds := load(t, [2]string{"geo.eval752.zip", bundle})
		if len(ds.RAG) != 1 || len(ds.Qrels) != 1 || len(ds.Preds) != 2 {
			t.Fatalf("loaded rag %d qrels %d preds %d", len(ds.RAG), len(ds.Qrels), len(ds.Preds))
		}
		set, err := Score(withFiles(ds), opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Units) != 1 {
			t.Fatalf("units %+v, want the question only", set.Units)
		}
		a := set.Runs[runIndex(t, set, "a")].Items[0]
		check(t, "a", a, []want{{"mrr", 1, "chk_a (3) first"}, {"ndcg@2", 1, "(3 + 1/log2 3) / (3 + 1/log2 3)"}})
		ar := set.Runs[runIndex(t, set, "a.retrieve")].Items[0]
		check(t, "a.retrieve", ar, []want{{"mrr", 1.0 / 2, "chk_a at rank 2"}, {"ndcg@2", (1 + 3/lg(3)) / (3 + 1/lg(3)), "gains 1, 3"}})
		absent(t, "a", a, "recall@1", "recall@2")
		b := set.Runs[runIndex(t, set, "b")].Items[0]
		// Run b has no qrels: as before the fix — the p.34 group resolves to
		// nothing (no chunk table), recall 0, both chunks unjudged.
		check(t, "b", b, []want{{"mrr", 0, "nothing judged"}, {"recall@2", 0, "group unresolved"}, {"judged@2", 0, "no judgment"}})
		if b.Unjudged != 2 || !slices.Contains(b.Flags, "ambiguous-gold") {
			t.Errorf("b flags %v unjudged %d, want unjudged 2 and ambiguous-gold", b.Flags, b.Unjudged)
		}
		var notes []string
		for _, n := range set.Notes {
			notes = append(notes, n.Run)
		}
		if !slices.Equal(notes, []string{"a", "a.retrieve"}) {
			t.Errorf("notes for runs %v, want a, a.retrieve", notes)
		}
	})

	t.Run("plus top-level qrels", func(t *testing.T) {
		ds := load(t, [2]string{"geo.eval752.zip", bundle}, [2]string{"qrels.tsv", "q_test_0042 0 chk_a 2\n"})
		set, err := Score(withFiles(ds), opt)
		if err != nil {
			t.Fatal(err)
		}
		// Run a: chk_a = max(3 from runs/a, 2 from the top level) = 3: unchanged.
		a := set.Runs[runIndex(t, set, "a")].Items[0]
		check(t, "a", a, []want{{"ndcg@2", 1, "grades 3, 1; ideal 3, 1"}})
		// Run b: only the top-level qrels: chk_a 2 at rank 1, chk_x unjudged.
		b := set.Runs[runIndex(t, set, "b")].Items[0]
		check(t, "b", b, []want{
			{"hit@1", 1, "grade 2 ≥ 2"},
			{"mrr", 1, ""},
			{"ndcg@2", 1, "gains 2, 0; ideal [2]: 2/2"},
			{"judged@2", 1.0 / 2, "chk_x not judged"},
		})
		if b.Unjudged != 1 || slices.Contains(b.Flags, "ambiguous-gold") {
			t.Errorf("b flags %v unjudged %d, want unjudged 1, no ambiguous-gold", b.Flags, b.Unjudged)
		}
		absent(t, "b", b, "recall@1", "recall@2")
		if len(set.Ambiguities) != 0 {
			t.Errorf("ambiguities %+v", set.Ambiguities)
		}
	})
}

// TestChunkQrelsMixedQIDs: qrels lines whose qid is no seed-003 question
// stay TREC units; the others grade the question's chunks.
func TestChunkQrelsMixedQIDs(t *testing.T) {
	ds := &dataset.Dataset{
		RAG: []dataset.Rec[model.RAGQuestion]{rec(model.RAGQuestion{QID: "q1", Query: "?", Answerable: true})},
		Qrels: []dataset.QrelsFile{{Path: "qrels.tsv", Judgments: []dataset.Qrel{
			{Line: 1, QID: "q1", DocNo: "c1", Grade: 3}, {Line: 2, QID: "t1", DocNo: "d1", Grade: 1},
		}}},
		Preds: []dataset.Rec[model.RAGPrediction]{{Loc: testFiles.At("p.jsonl", 1, 0), Typed: true,
			V: model.RAGPrediction{QID: "q1", RetrievedChunkIDs: []string{"c9", "c1"}}}},
	}
	set, err := Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Units) != 2 || set.Units[0].ID != "q1" || set.Units[0].Set != "rag" || set.Units[1].ID != "t1" || set.Units[1].Set != "trec" {
		t.Fatalf("units %+v", set.Units)
	}
	// A question with no gold groups but qrels is scored on the qrels:
	// c9 unjudged at rank 1, c1 (3) at rank 2.
	it := set.Runs[0].Items[0]
	check(t, "q1", it, []want{{"mrr", 1.0 / 2, "c1 at rank 2"}, {"ndcg@5", (3 / lg(3)) / 3, "gain 3 at rank 2 (3/log2 3); ideal [3]"}})
	absent(t, "q1", it, "recall@5")
	if it.Unjudged != 1 {
		t.Errorf("unjudged %d, want 1 (c9)", it.Unjudged)
	}
	if len(set.Notes) != 0 {
		t.Errorf("notes %+v, want none: the question has no groups to resolve", set.Notes)
	}
}

// TestTRECOnlyUnchanged: TREC qrels and a run with no seed-003 question give
// the Set the code before chunk qrels gave. The golden was written by the
// previous release's itemscore.Score (git HEAD before this change, run on
// the same files), not by this code; the later changes, reviewed as diffs,
// are that each item's detail repeats its flags ("unjudged") and that the
// metric descriptors carry seed 003 §7's first-stage and rerank targets
// apart (stage, rerank_threshold), and that an item's detail no longer
// repeats its run, scores, flags, missing mark and errors (ItemScore.RunItem
// assembles them; checked on the old golden: each repeated field equalled
// the item's own) — no value changed.
func TestTRECOnlyUnchanged(t *testing.T) {
	dir := filepath.Join("..", "score", "testdata", "trec_b_graded")
	ds := load(t, [2]string{"qrels", readFile(t, filepath.Join(dir, "qrels"))}, [2]string{"run", readFile(t, filepath.Join(dir, "run"))})
	set, err := Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.MarshalIndent(set, "", " ")
	want := readFile(t, filepath.Join("testdata", "trec_only.golden.json"))
	if string(got)+"\n" != want {
		t.Errorf("TREC-only Set differs from the pre-change golden")
	}
}

// TestRefusalTextIsAbstention: a run that answers an unanswerable question
// with the refusal phrase (and no refused flag) abstained, for false recall
// as for the refusal metrics; the same evidence with a made-up answer is a
// false recall. Both predictions retrieve c1 without scores, which is
// strong evidence (docs/metrics.md).
func TestRefusalTextIsAbstention(t *testing.T) {
	refusal, invented := "资料中没有相关信息。", "2025 年营业收入为 3.2 亿元。"
	ds := &dataset.Dataset{
		RAG: []dataset.Rec[model.RAGQuestion]{rec(model.RAGQuestion{QID: "u1", Query: "公司 2025 年的营业收入是多少？", Answerable: false})},
		Preds: []dataset.Rec[model.RAGPrediction]{
			{Loc: testFiles.At("a.jsonl", 1, 0), Typed: true, V: model.RAGPrediction{RunID: "a", QID: "u1", RetrievedChunkIDs: []string{"c1"}, Answer: &refusal}},
			{Loc: testFiles.At("b.jsonl", 1, 0), Typed: true, V: model.RAGPrediction{RunID: "b", QID: "u1", RetrievedChunkIDs: []string{"c1"}, Answer: &invented}},
		},
	}
	set, err := Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	check(t, "a/u1", set.Runs[0].Items[0], []want{
		{"false_recall@10", 0, "refused in its answer: no evidence returned as an answer"},
		{"refusal.tp", 1, "should refuse and refused"},
	})
	check(t, "b/u1", set.Runs[1].Items[0], []want{
		{"false_recall@10", 1, "answered, with c1 (no score: strong) in the top 10"},
		{"refusal.fn", 1, "should refuse, answered"},
	})
}

// TestTRECUnitHasNoRefusal: a TREC query has no answerability, so a run's
// answer to it scores no refusal indicator (refusal F1 would otherwise
// count "did not refuse" as right on every TREC query).
func TestTRECUnitHasNoRefusal(t *testing.T) {
	ans := "资料中没有相关信息"
	ds := &dataset.Dataset{
		Qrels: []dataset.QrelsFile{{Path: "qrels", Judgments: []dataset.Qrel{{Line: 1, QID: "t1", DocNo: "d1", Grade: 1}}}},
		Preds: []dataset.Rec[model.RAGPrediction]{{Loc: testFiles.At("p.jsonl", 1, 0), Typed: true,
			V: model.RAGPrediction{RunID: "r", QID: "t1", RetrievedChunkIDs: []string{"d1"}, Answer: &ans}}},
	}
	set, err := Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	it := set.Runs[0].Items[0]
	check(t, "t1", it, []want{{"mrr", 1, "d1 at rank 1"}})
	absent(t, "t1", it, "refusal.detected", "refusal.tp", "refusal.fp", "refusal.fn")
}

// TestClosedBookRun: a run whose predictions carry no retrieved_chunk_ids at
// all (seed 003 §8 ablation 1, closed-book) gets no retrieval figures, only
// its answers; an empty list is a ranking that found nothing (MRR 0).
func TestClosedBookRun(t *testing.T) {
	ans := "0.86%"
	ref := "0.86%"
	q := model.RAGQuestion{QID: "q1", Query: "?", Answerable: true, ReferenceAnswer: &ref,
		GoldEvidenceGroups: []model.EvidenceAnchor{{DocID: "d"}}}
	ds := &dataset.Dataset{
		RAG: []dataset.Rec[model.RAGQuestion]{rec(q)},
		Preds: []dataset.Rec[model.RAGPrediction]{
			{Loc: testFiles.At("a.jsonl", 1, 0), Typed: true, V: model.RAGPrediction{RunID: "closed", QID: "q1", Answer: &ans}},
			{Loc: testFiles.At("b.jsonl", 1, 0), Typed: true, V: model.RAGPrediction{RunID: "empty", QID: "q1", Answer: &ans, RetrievedChunkIDs: []string{}}},
		},
	}
	set, err := Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	closed, empty := set.Runs[0].Items[0], set.Runs[1].Items[0]
	check(t, "closed", closed, []want{{"answer.correct", 1, "exact reference"}})
	absent(t, "closed", closed, "mrr", "hit@5", "ndcg@10")
	check(t, "empty", empty, []want{{"mrr", 0, "nothing retrieved"}, {"answer.correct", 1, ""}})
}

// TestEmptyRerankIsNoRerank: a dense-only run that writes seed 003 §6.2's
// shape with "reranked_chunk_ids": [] on every line is ranked by its
// retrieved list (no "<run>.retrieve" twin); a run that reranks keeps an
// empty reranked list of one item as an empty final ranking.
//
//	qrels: q1 c1 3 → dense: retrieved [c2, c1], reranked [] everywhere:
//	mrr = 1/2 (c1 at rank 2), hit@1 = 0, hit@2 = 1
//	rr: q1 reranked [c1]; q2 reranked [] with retrieved [c1]: mrr(q2) = 0
func TestEmptyRerankIsNoRerank(t *testing.T) {
	q := func(id string) dataset.Rec[model.RAGQuestion] {
		return rec(model.RAGQuestion{QID: id, Query: "?", Answerable: true, GoldEvidenceGroups: []model.EvidenceAnchor{{DocID: "d"}}})
	}
	pred := func(run, qid string, retrieved, reranked []string) dataset.Rec[model.RAGPrediction] {
		return dataset.Rec[model.RAGPrediction]{Loc: testFiles.At(run+".jsonl", 1, 0), Typed: true,
			V: model.RAGPrediction{RunID: run, QID: qid, RetrievedChunkIDs: retrieved, RerankedChunkIDs: reranked}}
	}
	ds := load(t, [2]string{"qrels.tsv", "q1 0 c1 3\nq2 0 c1 3\n"})
	ds.RAG = []dataset.Rec[model.RAGQuestion]{q("q1"), q("q2")}
	ds.Preds = []dataset.Rec[model.RAGPrediction]{
		pred("dense", "q1", []string{"c2", "c1"}, []string{}),
		pred("dense", "q2", []string{"c2", "c1"}, []string{}),
		pred("rr", "q1", []string{"c2", "c1"}, []string{"c1"}),
		pred("rr", "q2", []string{"c1"}, []string{}),
	}
	set, err := Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range set.Runs {
		names = append(names, r.Run)
	}
	if want := []string{"dense", "rr", "rr.retrieve"}; !slices.Equal(names, want) {
		t.Fatalf("runs %v, want %v (a run that never reranks has no .retrieve twin)", names, want)
	}
	q1, q2 := unitIndex(t, set, "q1"), unitIndex(t, set, "q2")
	check(t, "dense q1", set.Runs[runIndex(t, set, "dense")].Items[q1], []want{{"mrr", 0.5, "c1 at rank 2 of the retrieved list"}, {"hit@1", 0, ""}})
	check(t, "rr q1", set.Runs[runIndex(t, set, "rr")].Items[q1], []want{{"mrr", 1, "reranked [c1]"}})
	rrq2 := set.Runs[runIndex(t, set, "rr")].Items[q2]
	check(t, "rr q2", rrq2, []want{{"mrr", 0, "the reranked list is empty"}})
	if !slices.Contains(rrq2.Flags, "rerank-empty") {
		t.Errorf("rr q2 flags %v, want rerank-empty (the first stage found c1)", rrq2.Flags)
	}

	check(t, "rr.retrieve q2", set.Runs[runIndex(t, set, "rr.retrieve")].Items[q2], []want{{"mrr", 1, "retrieved [c1]"}})
	// a run of another input named like the twin: no silent replacement
	ds.Preds = append(ds.Preds, pred("rr.retrieve", "q1", []string{"c1"}, nil))
	set, err = Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	names = names[:0]
	for _, r := range set.Runs {
		names = append(names, r.Run)
	}
	if want := []string{"dense", "rr", "rr.retrieve"}; !slices.Equal(names, want) || set.Runs[2].Items[q2].Missing != true {
		t.Errorf("runs %v (rr.retrieve q2 missing %v): want the input's own rr.retrieve, not rr's first stage merged into it", names, set.Runs[2].Items[q2].Missing)
	}
	if !slices.ContainsFunc(set.Notes, func(n Note) bool { return n.Run == "rr" && strings.Contains(n.Text, "first-stage twin is not made") }) {
		t.Errorf("notes %+v: want the twin clash said", set.Notes)
	}
}

// TestGradeOutsideScaleIsNoJudgment: seed 003 grades are 0–3. A qrels line
// grading chk_b 4 and an anchored judgment grading chk_c 5 (validation
// reports both) judge nothing: the chunks stay unjudged instead of becoming
// relevant with a gain above the scale.
//
//	qrels q: chk_a 3, chk_b 4; judgment q chk_c (p.36) grade 5
//	ranking chk_b, chk_c, chk_a → mrr = 1/3 (chk_a at rank 3), unjudged 2
func TestGradeOutsideScaleIsNoJudgment(t *testing.T) {
	ch := func(id string, p int) dataset.Rec[model.RAGChunk] {
		return rec(model.RAGChunk{ChunkID: id, DocID: "doc", PageNo: ip(p)})
	}
	ds := &dataset.Dataset{
		RAG:       []dataset.Rec[model.RAGQuestion]{rec(model.RAGQuestion{QID: "q", Query: "?", Answerable: true})},
		Chunks:    []dataset.Rec[model.RAGChunk]{ch("chk_a", 34), ch("chk_b", 35), ch("chk_c", 36)},
		Judgments: []dataset.Rec[model.RAGJudgment]{rec(model.RAGJudgment{QID: "q", Grade: 5, DocID: "doc", PageNo: ip(36)})},
		Qrels: []dataset.QrelsFile{{Path: "corpus/qrels.tsv", Judgments: []dataset.Qrel{
			{Line: 1, QID: "q", DocNo: "chk_a", Grade: 3}, {Line: 2, QID: "q", DocNo: "chk_b", Grade: 4},
		}}},
		Preds: []dataset.Rec[model.RAGPrediction]{{Loc: testFiles.At("runs/r/predictions.jsonl", 1, 0), Typed: true,
			V: model.RAGPrediction{QID: "q", RetrievedChunkIDs: []string{"chk_b", "chk_c", "chk_a"}}}},
	}
	set, err := Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	it := set.Runs[0].Items[0]
	check(t, "q", it, []want{{"mrr", 1.0 / 3, "chk_a (grade 3) at rank 3; chk_b and chk_c are unjudged"}})
	if it.Unjudged != 2 {
		t.Errorf("unjudged %d, want 2 (chk_b, chk_c)", it.Unjudged)
	}
}

// TestQrelsDigest: two runs' qrels.tsv with the same judgments in another
// line order, with CRLF line ends and seed 003's header line have one
// digest (one truth set); a changed grade changes it.
func TestQrelsDigest(t *testing.T) {
	q := `{"qid":"q1","query":"?","answerable":true,"gold_evidence_groups":[],"split":"test"}` + "\n"
	p := func(qid string) string { return `{"qid":"` + qid + `","retrieved_chunk_ids":["c1"]}` + "\n" }
	ds := load(t,
		[2]string{"eval/questions.jsonl", q},
		[2]string{"runs/a/qrels.tsv", "q1 0 c1 3\nq1 0 c2 1\n"},
		[2]string{"runs/a/predictions.jsonl", p("q1")},
		[2]string{"runs/b/qrels.tsv", "qid 0 chunk_id relevance_grade\r\nq1 0 c2 1\r\nq1 0 c1 3\r\n"},
		[2]string{"runs/b/predictions.jsonl", p("q1")},
		[2]string{"runs/c/qrels.tsv", "q1 0 c1 2\nq1 0 c2 1\n"},
		[2]string{"runs/c/predictions.jsonl", p("q1")},
	)
	set, err := Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	d := map[string][]string{}
	for _, r := range set.Runs {
		d[r.Run] = r.QrelsDigest
	}
	if len(d["a"]) != 1 || !slices.Equal(d["a"], d["b"]) || slices.Equal(d["a"], d["c"]) {
		t.Errorf("digests %v: want a == b (same judgments) and a != c (c1 graded 2)", d)
	}
}

// TestUnreadQuestionQrels: the qrels lines of a question the reader could
// not type (validation reports it once) are that question's judgments, not
// a TREC query of their own.
func TestUnreadQuestionQrels(t *testing.T) {
	ds := load(t,
		[2]string{"eval/questions.jsonl", `{"qid":"q1","query":"?","answerable":true,"gold_evidence_groups":[{"required":true,"doc_id":"d","char_start":1,"char_end":1e400}],"split":"test"}` + "\n" +
			`{"qid":"q2","query":"?","answerable":true,"gold_evidence_groups":[],"split":"test"}` + "\n"},
		[2]string{"runs/a/qrels.tsv", "q1 0 c1 3\nq2 0 c1 3\n"},
		[2]string{"runs/a/predictions.jsonl", `{"qid":"q2","retrieved_chunk_ids":["c1"]}` + "\n"},
	)
	set, err := Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range set.Units {
		ids = append(ids, u.Set+":"+u.ID)
	}
	if !slices.Equal(ids, []string{"rag:q2"}) {
		t.Errorf("units %v, want rag:q2 only (q1 could not be read; its qrels line is no TREC query)", ids)
	}
}

package itemscore

import (
	"slices"
	"strings"
	"testing"
)

// The attribution rules of docs/metrics.md on a folder written for them.
// Run r reranks (context_top_n: 1); run r2 does not rerank and has no
// config. qrels: q1 c1 3, q2 c2 2, q3 c3 3, q5 c1 3.
//   - r q1: first stage c7 c8 has no grade ≥ 2 → RETRIEVAL_MISS; its
//     errors.jsonl adds GEN_OMISSION (reviewed). A NOT_A_CODE line is left out.
//   - r q2: c2 is in the first stage, not in the reranked list → RERANK_TRUNCATION.
//   - r q3: reranked c5 c3, the cut is 1 and c3 is 2nd → RERANK_WRONG_ORDER;
//     it cites c5 (not judged) → CITATION_MISMATCH.
//   - r q4 (should refuse): answers → REFUSAL_UNDER; error "HTTP 429 Too
//     Many Requests" → SYSTEM_RATE_LIMIT.
//   - r2 q5: c5 c6 (the same text up to case and spaces) fill the top 2
//     (k = DefaultCrowdingK = 5 > 2: the whole list): 1 duplicate of 2
//     slots, ≥ half → DUPLICATE_CROWDING; c1 not retrieved → RETRIEVAL_MISS.
//   - r q5: refused though answerable → REFUSAL_OVER.
func TestErrorAttribution(t *testing.T) {
	q := func(id string, ans bool) string {
		a := "true"
		if !ans {
			a = "false"
		}
		return `{"qid": "` + id + `", "query": "question ` + id + `", "answerable": ` + a + `, "reference_answer": "x", "gold_evidence_groups": [], "split": "test"}`
	}
	var qs []string
	for _, id := range []string{"q1", "q2", "q3", "q5"} {
		qs = append(qs, q(id, true))
	}
	qs = append(qs, `{"qid": "q4", "query": "question q4", "answerable": false, "gold_evidence_groups": [], "split": "test"}`)
	chunks := []string{}
	for _, c := range []struct{ id, text string }{{"c1", "alpha"}, {"c2", "beta"}, {"c3", "gamma"}, {"c5", "Same text here."}, {"c6", "same text  here"}, {"c7", "delta"}, {"c8", "epsilon"}} {
		chunks = append(chunks, `{"chunk_id": "`+c.id+`", "doc_id": "d1", "text": "`+c.text+`"}`)
	}
	qrels := "qid 0 chunk_id relevance_grade\nq1 0 c1 3\nq2 0 c2 2\nq3 0 c3 3\nq5 0 c1 3\n"
	ds := load(t,
		[2]string{"exp/eval/questions.jsonl", strings.Join(qs, "\n") + "\n"},
		[2]string{"exp/data/chunks.jsonl", strings.Join(chunks, "\n") + "\n"},
		[2]string{"exp/runs/r/qrels.tsv", qrels},
		[2]string{"exp/runs/r2/qrels.tsv", qrels},
		[2]string{"exp/runs/r/config.yaml", "context_top_n: 1\n"},
		[2]string{"exp/runs/r/predictions.jsonl", strings.Join([]string{
			`{"qid": "q1", "retrieved_chunk_ids": ["c7", "c8"], "reranked_chunk_ids": ["c7"], "answer": "x"}`,
			`{"qid": "q2", "retrieved_chunk_ids": ["c2", "c8"], "reranked_chunk_ids": ["c8"], "answer": "x"}`,
			`{"qid": "q3", "retrieved_chunk_ids": ["c3", "c5"], "reranked_chunk_ids": ["c5", "c3"], "answer": "x", "citations": [{"label": "S1", "chunk_id": "c5"}]}`,
			`{"qid": "q4", "retrieved_chunk_ids": ["c8"], "reranked_chunk_ids": ["c8"], "answer": "made up", "error": "HTTP 429 Too Many Requests"}`,
			`{"qid": "q5", "retrieved_chunk_ids": ["c1"], "reranked_chunk_ids": ["c1"], "answer": null, "refused": true}`,
		}, "\n") + "\n"},
		[2]string{"exp/runs/r/errors.jsonl", `{"qid": "q1", "code": "GEN_OMISSION"}` + "\n" + `{"qid": "q2", "code": "NOT_A_CODE"}` + "\n"},
		[2]string{"exp/runs/r2/predictions.jsonl", `{"qid": "q5", "retrieved_chunk_ids": ["c5", "c6"], "answer": "x"}` + "\n"},
	)
	set, err := Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, rs := range set.Runs {
		for i, it := range rs.Items {
			if len(it.Errors) > 0 || len(it.Reviewed) > 0 {
				got[rs.Run+" "+set.Units[i].ID] = strings.Join(it.Errors, ",") + "|" + strings.Join(it.Reviewed, ",")
			}
		}
	}
	want := map[string]string{
		"r q1":  "RETRIEVAL_MISS|GEN_OMISSION",
		"r q2":  "RERANK_TRUNCATION|",
		"r q3":  "RERANK_WRONG_ORDER,CITATION_MISMATCH|",
		"r q4":  "REFUSAL_UNDER,SYSTEM_RATE_LIMIT|",
		"r q5":  "REFUSAL_OVER|",
		"r2 q5": "DUPLICATE_CROWDING,RETRIEVAL_MISS|",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q", k, got[k], w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok && !strings.HasSuffix(k, ".retrieve "+k[strings.LastIndex(k, " ")+1:]) {
			t.Errorf("unexpected codes on %s: %q", k, got[k])
		}
	}
	// the item browser shows the union, in taxonomy order
	for _, rs := range set.Runs {
		if rs.Run == "r" {
			if d := rs.Items[0].RunItem(rs.Run).Errors; !slices.Equal(d, []string{"RETRIEVAL_MISS", "GEN_OMISSION"}) {
				t.Errorf("detail errors of r q1: %v", d)
			}
		}
	}
}

// ErrorRecords writes seed 003 §9's record shape (qid, run configuration,
// expected, actual, retrieved / reranked lists, answer, citations, root
// cause, severity, fix) from the run's own result: q1's first stage is
// written c7 c8 with vector scores 0.1 0.9 — the record keeps that order
// (the scored ranking would be c8 c7) — and its reranked list c8 is the
// record's reranked_chunk_ids, not its retrieved list. A derived record
// carries severity "unrated" (eval752 attributes, a reviewer rates); the
// reviewed GEN_OMISSION is the reviewer's own line (severity high, their
// root cause and fix).
func TestErrorRecordsShape(t *testing.T) {
	ds := load(t,
		[2]string{"exp/eval/questions.jsonl", `{"qid": "q1", "query": "question q1", "answerable": true, "reference_answer": "x", "gold_evidence_groups": [], "split": "test"}` + "\n"},
		[2]string{"exp/data/chunks.jsonl", `{"chunk_id": "c1", "doc_id": "d1", "text": "alpha"}` + "\n" + `{"chunk_id": "c7", "doc_id": "d1", "text": "delta"}` + "\n" + `{"chunk_id": "c8", "doc_id": "d1", "text": "epsilon"}` + "\n"},
		[2]string{"exp/runs/r/qrels.tsv", "qid 0 chunk_id relevance_grade\nq1 0 c1 3\n"},
		[2]string{"exp/runs/r/config.yaml", "context_top_n: 1\n"},
		[2]string{"exp/runs/r/predictions.jsonl", `{"qid": "q1", "retrieved_chunk_ids": ["c7", "c8"], "vector_scores": [0.1, 0.9], "reranked_chunk_ids": ["c8"], "answer": "x", "citations": [{"label": "S1", "chunk_id": "c8"}]}` + "\n"},
		[2]string{"exp/runs/r/errors.jsonl", `{"qid": "q1", "code": "GEN_OMISSION", "root_cause": "left out", "severity": "high", "suggested_fix": "quote it"}` + "\n"},
	)
	set, err := Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	byCode := map[string]int{}
	recs := ErrorRecords(set)
	for i, e := range recs {
		if e.RunID == "r" {
			byCode[e.Code] = i
		}
	}
	for _, code := range []string{"RETRIEVAL_MISS", "CITATION_MISMATCH", "GEN_OMISSION"} {
		i, ok := byCode[code]
		if !ok {
			t.Fatalf("no %s record: %+v", code, recs)
		}
		e := recs[i]
		if !slices.Equal(e.RetrievedChunkIDs, []string{"c7", "c8"}) || !slices.Equal(e.RerankedChunkIDs, []string{"c8"}) {
			t.Errorf("%s lists: retrieved %v reranked %v, want [c7 c8] [c8]", code, e.RetrievedChunkIDs, e.RerankedChunkIDs)
		}
		if len(e.Citations) != 1 || e.Citations[0].ChunkID != "c8" || e.Answer == nil || *e.Answer != "x" || e.Expected != "x" || e.Config == nil {
			t.Errorf("%s: citations %v answer %v expected %v config %v", code, e.Citations, e.Answer, e.Expected, e.Config)
		}
		want := "unrated"
		if code == "GEN_OMISSION" {
			want = "high"
			if e.RootCause != "left out" || e.SuggestedFix != "quote it" || e.Source != "reviewed" {
				t.Errorf("reviewed record not the reviewer's: %+v", e)
			}
		}
		if e.Severity != want || e.RootCause == "" || e.SuggestedFix == "" {
			t.Errorf("%s: severity %q root cause %q fix %q, want severity %q", code, e.Severity, e.RootCause, e.SuggestedFix, want)
		}
	}
}

// A reranking run whose first prediction has no reranked list (q1: the
// rerank step wrote nothing) still gets its first-stage twin r.retrieve:
// the run reranks (q2 has a reranked list), so both are scored.
func TestFirstStageTwinWhenFirstPredictionNotReranked(t *testing.T) {
	ds := load(t,
		[2]string{"exp/eval/questions.jsonl", `{"qid": "q1", "query": "question q1", "answerable": true, "reference_answer": "x", "gold_evidence_groups": [], "split": "test"}` + "\n" +
			`{"qid": "q2", "query": "question q2", "answerable": true, "reference_answer": "x", "gold_evidence_groups": [], "split": "test"}` + "\n"},
		[2]string{"exp/data/chunks.jsonl", `{"chunk_id": "c1", "doc_id": "d1", "text": "alpha"}` + "\n" + `{"chunk_id": "c2", "doc_id": "d1", "text": "beta"}` + "\n"},
		[2]string{"exp/runs/r/qrels.tsv", "qid 0 chunk_id relevance_grade\nq1 0 c1 3\nq2 0 c2 3\n"},
		[2]string{"exp/runs/r/predictions.jsonl", `{"qid": "q1", "retrieved_chunk_ids": ["c2", "c1"], "answer": "x"}` + "\n" +
			`{"qid": "q2", "retrieved_chunk_ids": ["c1", "c2"], "reranked_chunk_ids": ["c2", "c1"], "answer": "x"}` + "\n"},
	)
	set, err := Score(withFiles(ds), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, rs := range set.Runs {
		names = append(names, rs.Run)
	}
	if !slices.Equal(names, []string{"r", "r.retrieve"}) {
		t.Errorf("runs %v, want [r r.retrieve]", names)
	}
}

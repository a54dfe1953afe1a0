package score

import (
	"math"
	"testing"

	"eval752/app/dataset"
	"eval752/app/itemscore"
	"eval752/app/model"
)

// TestFlagsNotHidden: a figure carries every flag of its items (issue 11,
// item 6). One seed-003 question; chunks c0 [0,100) and c1 [100,200) of d1;
// gold evidence at [10,20) → c0 (grade 3); a grade-2 judgment at [250,260)
// that no chunk covers → unresolved (a phantom 2 in the ideal list); the run
// retrieves [c0, c1], and c1 is unjudged. The item is both "unjudged" and
// "unresolved-judgment", so its ndcg@5 figure must say both (before: only
// "unjudged: 1 item").
//
//	ndcg@5 = 3 / (3 + 2/log2 3) = 0.7039 (gains 3, 0; ideal 3, 2)
func TestFlagsNotHidden(t *testing.T) {
	tr := func(v bool) *bool { return &v }
	var files dataset.Dataset // the records' file table
	rag := func(v model.RAGQuestion) dataset.Rec[model.RAGQuestion] {
		return dataset.Rec[model.RAGQuestion]{Loc: files.At("eval/questions.jsonl", 1, 0), Typed: true, V: v}
	}
	chunk := func(id string, s, e int) dataset.Rec[model.RAGChunk] {
		return dataset.Rec[model.RAGChunk]{Loc: files.At("data/chunks.jsonl", 1, 0), Typed: true,
			V: model.RAGChunk{ChunkID: id, DocID: "d1", CharStart: ip(s), CharEnd: ip(e)}}
	}
	ans := "x"
	ds := &dataset.Dataset{
		RAG: []dataset.Rec[model.RAGQuestion]{rag(model.RAGQuestion{QID: "q1", Query: "?", Answerable: true, ReferenceAnswer: &ans,
			GoldEvidenceGroups: []model.EvidenceAnchor{{Required: tr(true), DocID: "d1", CharStart: ip(10), CharEnd: ip(20)}}})},
		Chunks: []dataset.Rec[model.RAGChunk]{chunk("c0", 0, 100), chunk("c1", 100, 200)},
		Judgments: []dataset.Rec[model.RAGJudgment]{{Loc: files.At("eval/anchored_judgments.jsonl", 1, 0), Typed: true,
			V: model.RAGJudgment{QID: "q1", Grade: 2, DocID: "d1", CharStart: ip(250), CharEnd: ip(260)}}},
		Preds: []dataset.Rec[model.RAGPrediction]{{Loc: files.At("runs/r/predictions.jsonl", 1, 0), Typed: true,
			V: model.RAGPrediction{RunID: "r", QID: "q1", RetrievedChunkIDs: []string{"c0", "c1"}, Answer: &ans}}},
	}
	ds.Files = files.Files
	set, err := itemscore.Score(ds, itemscore.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	it := set.Runs[0].Items[0]
	if got := itemscore.FlagsFor("ndcg@5", it); len(got) != 2 || got[0] != "unjudged" || got[1] != "unresolved-judgment" {
		t.Fatalf("FlagsFor(ndcg@5) = %v (item flags %v, unjudged %d), want [unjudged unresolved-judgment]", got, it.Flags, it.Unjudged)
	}
	rep := Score(set, DefaultOptions())
	c := findCell(t, rep, "retrieval.all", "ndcg@5", "all", "r")
	if want := 3 / (3 + 2/math.Log2(3)); c.Value == nil || math.Abs(*c.Value-want) > 1e-12 {
		t.Errorf("ndcg@5 = %v, want %v", c.Value, want)
	}
	if want := "unjudged: 1 item; unresolved judgments: 1 item"; c.Flag != want {
		t.Errorf("ndcg@5 flag %q, want %q", c.Flag, want)
	}
	// recall@5 reads no graded judgment: only the unjudged c1 marks it.
	if c := findCell(t, rep, "retrieval.all", "recall@5", "all", "r"); c.Flag != "unjudged: 1 item" {
		t.Errorf("recall@5 flag %q, want %q", c.Flag, "unjudged: 1 item")
	}
}

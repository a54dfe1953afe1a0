package validate

import (
	"encoding/json"
	"strings"

	"eval752/app/dataset"
	"eval752/app/model"
)

// The document text below is 32 code points (Python: len(...) == 32). Its
// first 10 code points are "铜矿品位为0.86%", whose UTF-8 sha256 is, from
// `printf '%s' '铜矿品位为0.86%' | sha256sum`:
const (
	docText  = "铜矿品位为0.86%。样品H12位于125.4–127.2 m。"
	spanSHA  = "ad5bf07c615dd28a431f61e68851cde314d2f0a29f297b444d9099900921f4d5"
	otherSHA = "ed886d735b3ed7db324ddfcfa30187c3fac4182f623a79e2b8c54ebf92a38a3a" // sha256 of "other text"
	goodDoc  = `{"doc_id":"doc_demo_001","title":"演示","document_version_id":"docver_demo_001","review_state":"CLOUD_APPROVED",` + approval + `,"searchable":true,"text":"` + docText + `","page_count":40}`
	// approval is what a CLOUD_APPROVED document's approval binds (seed 003
	// §1.2): a passed security review, the approver, and the seven values.
	approval = `"security_review":"passed","cloud_approved_by":"reviewer_a","raw_sha256":"` + otherSHA + `","parser_profile_hash":"p1","ocr_profile_hash":"o1",` +
		`"normalization_profile_hash":"n1","chunk_profile_hash":"c1","cloud_policy_id":"cloud-policy-v1","outbound_manifest_sha256":"` + otherSHA + `"`
	countDoc  = `{"doc_id":"doc_count","title":"char_count only","char_count":50}`
	pagedDoc  = `{"doc_id":"doc_paged","title":"pages only"}`
	goodRAG   = `{"qid":"q_test_0042","query":"演示钻孔 ZK1203 在 125.4 至 127.2 米的铜品位是多少？","answerable":true,"reference_answer":"0.86%","gold_evidence_groups":[{"required":true,"doc_id":"doc_demo_001","document_version_id":"docver_demo_001","page_no":34,"char_start":0,"char_end":10,"bbox":[88,201,512,238],"evidence_sha256":"` + spanSHA + `"}],"split":"test"}`
	unansRAG  = `{"qid":"q_none","query":"演示矿区 2031 年的金产量是多少？","answerable":false,"reference_answer":null,"gold_evidence_groups":[]}`
	goodJudg  = `{"schema_version":1,"qid":"q_test_0042","grade":3,"reason":"direct answer","doc_id":"doc_demo_001","char_start":0,"char_end":10,"evidence_sha256":"` + spanSHA + `"}`
	goodPred  = `{"qid":"q_test_0042","retrieved_chunk_ids":["c1","c2"],"answer":"0.86%","citations":[{"label":"S1","chunk_id":"c1"}]}`
	goodChunk = `{"chunk_id":"c1","doc_id":"doc_demo_001","searchable":true}`
)

// pagesLines: doc_paged has pages 1 = [0,100) and 2 = [100,180); page 2's
// text is known ("x" repeated, with "铜矿品位为0.86%" at offset 120).
var pagesLines = []string{
	`{"doc_id":"doc_paged","page_no":1,"char_start":0,"char_end":100}`,
	`{"doc_id":"doc_paged","page_no":2,"char_start":100,"char_end":180,"text":"` + rep("x", 20) + "铜矿品位为0.86%" + rep("x", 50) + `"}`,
}

func rep(s string, n int) string {
	out := ""
	for i := 0; i < n; i++ {
		out += s
	}
	return out
}

type ragFiles struct {
	questions, docs, pages, chunks, judgments, preds []string
}

func ragDS(f ragFiles) func() *dataset.Dataset {
	return func() *dataset.Dataset {
		ds := newDS()
		add := func(format model.Format, n int) {
			if n > 0 {
				ds.Has[format] = true
			}
		}
		add(model.FormatRAGQuestion, len(f.questions))
		add(model.FormatRAGDocument, len(f.docs))
		add(model.FormatRAGPage, len(f.pages))
		add(model.FormatRAGChunk, len(f.chunks))
		add(model.FormatRAGJudgment, len(f.judgments))
		add(model.FormatRAGPrediction, len(f.preds))
		for i, l := range f.questions {
			ds.RAG = append(ds.RAG, rec[model.RAGQuestion]("eval/questions.jsonl", i+1, l))
		}
		for i, l := range f.docs {
			ds.Documents = append(ds.Documents, rec[model.RAGDocument]("data/documents.jsonl", i+1, l))
		}
		for i, l := range f.pages {
			ds.Pages = append(ds.Pages, rec[model.RAGPage]("data/pages.jsonl", i+1, l))
		}
		for i, l := range f.chunks {
			ds.Chunks = append(ds.Chunks, rec[model.RAGChunk]("data/chunks.jsonl", i+1, l))
		}
		for i, l := range f.judgments {
			ds.Judgments = append(ds.Judgments, rec[model.RAGJudgment]("eval/anchored_judgments.jsonl", i+1, l))
		}
		for i, l := range f.preds {
			ds.Preds = append(ds.Preds, rec[model.RAGPrediction]("runs/r1/predictions.jsonl", i+1, l))
		}
		return ds
	}
}

var docs = []string{goodDoc, countDoc, pagedDoc}

func anchorQ(kv ...any) string {
	args := []any{}
	for i := 0; i < len(kv); i += 2 {
		args = append(args, "gold_evidence_groups/0/"+kv[i].(string), kv[i+1])
	}
	return patch(goodRAG, args...)
}

const g0 = "eval/questions.jsonl:1:/gold_evidence_groups/0"

var ragCases = []ruleCase{
	{name: "documents loaded", code: "rag.documents-absent", ds: ragDS(ragFiles{questions: []string{goodRAG}, docs: docs})},
	{name: "documents absent, once", code: "rag.documents-absent", ds: ragDS(ragFiles{questions: []string{goodRAG, patch(goodRAG, "qid", "q2")}}),
		want: []string{"eval/questions.jsonl:0:"}},

	{name: "known doc", code: "rag.doc-unknown", ds: ragDS(ragFiles{questions: []string{goodRAG}, docs: docs})},
	{name: "unknown doc", code: "rag.doc-unknown", ds: ragDS(ragFiles{questions: []string{anchorQ("doc_id", "doc_x")}, docs: docs}),
		want: []string{g0 + "/doc_id"}},

	{name: "known version", code: "rag.document-version", ds: ragDS(ragFiles{questions: []string{goodRAG}, docs: docs})},
	{name: "other version", code: "rag.document-version", ds: ragDS(ragFiles{questions: []string{anchorQ("document_version_id", "docver_old", "char_end", 999)}, docs: docs}),
		want: []string{g0 + "/document_version_id"}},

	{name: "ordered span", code: "rag.offsets", ds: ragDS(ragFiles{questions: []string{goodRAG}})},
	{name: "empty, half, negative spans", code: "rag.offsets", ds: ragDS(ragFiles{questions: []string{
		anchorQ("char_start", 10, "char_end", 10),
		patch(anchorQ("char_end", del), "qid", "q2"),
		patch(anchorQ("char_start", -1), "qid", "q3"),
	}}),
		want: []string{g0 + "/char_end", "eval/questions.jsonl:2:/gold_evidence_groups/0/char_start", "eval/questions.jsonl:3:/gold_evidence_groups/0/char_start"}},

	// docText is 32 code points: [22, 32) fits, [22, 33) does not; doc_count
	// has char_count 50; doc_paged ends at 180 per its pages.
	{name: "inside documents", code: "rag.offsets-outside", ds: ragDS(ragFiles{questions: []string{
		anchorQ("char_start", 22, "char_end", 32, "evidence_sha256", ""),
		patch(anchorQ("doc_id", "doc_count", "document_version_id", "", "char_start", 40, "char_end", 50, "evidence_sha256", ""), "qid", "q2"),
		patch(anchorQ("doc_id", "doc_paged", "document_version_id", "", "page_no", 2, "char_start", 170, "char_end", 180, "evidence_sha256", ""), "qid", "q3"),
	}, docs: docs, pages: pagesLines})},
	{name: "past the end", code: "rag.offsets-outside", ds: ragDS(ragFiles{questions: []string{
		anchorQ("char_start", 22, "char_end", 33),
		patch(anchorQ("doc_id", "doc_count", "document_version_id", "", "char_start", 40, "char_end", 51), "qid", "q2"),
		patch(anchorQ("doc_id", "doc_paged", "document_version_id", "", "page_no", 2, "char_start", 170, "char_end", 181), "qid", "q3"),
	}, docs: docs, pages: pagesLines}),
		want: []string{g0 + "/char_end", "eval/questions.jsonl:2:/gold_evidence_groups/0/char_end", "eval/questions.jsonl:3:/gold_evidence_groups/0/char_end"},
		msg:  "span [22, 33) ends past the end of doc_demo_001 (32 characters)"},

	{name: "documents with text, char_count or pages", code: "rag.anchor-unchecked", ds: ragDS(ragFiles{questions: []string{
		anchorQ("char_start", 22, "char_end", 32, "evidence_sha256", ""),
		patch(anchorQ("doc_id", "doc_count", "document_version_id", "", "char_start", 40, "char_end", 50, "evidence_sha256", ""), "qid", "q2"),
	}, docs: docs, pages: pagesLines})},
	{name: "a document as seed 003 §1.3 writes it (no text)", code: "rag.anchor-unchecked", ds: ragDS(ragFiles{questions: []string{
		anchorQ("doc_id", "doc_bare", "document_version_id", "", "char_start", 4000, "char_end", 5000, "evidence_sha256", ""),
		patch(anchorQ("doc_id", "doc_bare", "document_version_id", "", "char_start", 1, "char_end", 2, "evidence_sha256", ""), "qid", "q2"),
	}, docs: append([]string{`{"doc_id":"doc_bare","title":"演示","review_state":"CLOUD_APPROVED"}`}, docs...)}),
		want: []string{"eval/questions.jsonl:0:"}, msg: "documents.jsonl gives doc_bare (first at line 1) no text, char_count or pages with offsets"},
	{name: "two bare documents, and one with a length but no text", code: "rag.anchor-unchecked", ds: ragDS(ragFiles{questions: []string{
		anchorQ("doc_id", "doc_bare", "document_version_id", "", "char_start", 1, "char_end", 2, "evidence_sha256", ""),
		patch(anchorQ("doc_id", "doc_bare2", "document_version_id", "", "char_start", 1, "char_end", 2, "evidence_sha256", ""), "qid", "q2"),
		patch(anchorQ("doc_id", "doc_count", "document_version_id", "", "char_start", 40, "char_end", 50, "evidence_sha256", strings.Repeat("f", 64)), "qid", "q3"),
	}, docs: append([]string{`{"doc_id":"doc_bare","title":"演示","review_state":"CLOUD_APPROVED"}`, `{"doc_id":"doc_bare2","title":"演示","review_state":"CLOUD_APPROVED"}`}, docs...)}),
		// one finding for the file, naming every document and why
		want: []string{"eval/questions.jsonl:0:"}, msg: "doc_bare (first at line 1), doc_bare2 (first at line 2) no text, char_count or pages with offsets, so the spans of their anchors and their evidence_sha256 are not checked; documents.jsonl gives doc_count (first at line 3) a length but no text, so evidence_sha256 cannot be recomputed"},

	{name: "valid pages", code: "rag.page", ds: ragDS(ragFiles{questions: []string{goodRAG,
		patch(anchorQ("doc_id", "doc_paged", "document_version_id", "", "page_no", 2, "char_start", 120, "char_end", 130, "evidence_sha256", ""), "qid", "q2"),
	}, docs: docs, pages: pagesLines})},
	{name: "bad pages", code: "rag.page", ds: ragDS(ragFiles{questions: []string{
		anchorQ("page_no", 41),
		patch(anchorQ("page_no", 0), "qid", "q2"),
		patch(anchorQ("doc_id", "doc_paged", "document_version_id", "", "page_no", 3, "char_start", 120, "char_end", 130), "qid", "q3"),
	}, docs: docs, pages: pagesLines}),
		want: []string{g0 + "/page_no", "eval/questions.jsonl:2:/gold_evidence_groups/0/page_no", "eval/questions.jsonl:3:/gold_evidence_groups/0/page_no"}},

	{name: "offset on its page", code: "rag.page-span", ds: ragDS(ragFiles{questions: []string{
		anchorQ("doc_id", "doc_paged", "document_version_id", "", "page_no", 2, "char_start", 120, "char_end", 130),
	}, docs: docs, pages: pagesLines})},
	{name: "offset on another page", code: "rag.page-span", ds: ragDS(ragFiles{questions: []string{
		anchorQ("doc_id", "doc_paged", "document_version_id", "", "page_no", 2, "char_start", 10, "char_end", 20),
	}, docs: docs, pages: pagesLines}),
		want: []string{g0 + "/char_start"}},

	{name: "ordered bbox", code: "rag.bbox", ds: ragDS(ragFiles{questions: []string{goodRAG}})},
	{name: "reversed and short bbox", code: "rag.bbox", ds: ragDS(ragFiles{questions: []string{
		anchorQ("bbox", raw(`[512,201,88,238]`)), patch(anchorQ("bbox", raw(`[1,2,3]`)), "qid", "q2"),
	}}),
		want: []string{g0 + "/bbox", "eval/questions.jsonl:2:/gold_evidence_groups/0/bbox"}},

	{name: "hex hash, empty hash", code: "rag.sha256-format", ds: ragDS(ragFiles{questions: []string{goodRAG, patch(anchorQ("evidence_sha256", ""), "qid", "q2")}})},
	{name: "short hash", code: "rag.sha256-format", ds: ragDS(ragFiles{questions: []string{anchorQ("evidence_sha256", "abc")}}),
		want: []string{g0 + "/evidence_sha256"}},

	{name: "hash of the span", code: "rag.sha256-mismatch", ds: ragDS(ragFiles{
		questions: []string{
			goodRAG,
			patch(anchorQ("evidence_text", "铜矿品位为0.86%"), "qid", "q2"),
			patch(anchorQ("doc_id", "doc_paged", "document_version_id", "", "page_no", 2, "char_start", 120, "char_end", 130), "qid", "q3"),
		},
		judgments: []string{goodJudg},
		docs:      docs, pages: pagesLines})},
	{name: "hash of something else", code: "rag.sha256-mismatch", ds: ragDS(ragFiles{
		questions: []string{
			anchorQ("evidence_sha256", otherSHA),
			patch(anchorQ("doc_id", "doc_paged", "document_version_id", "", "page_no", 2, "char_start", 121, "char_end", 131), "qid", "q3"),
		},
		judgments: []string{patch(goodJudg, "char_end", 9)},
		docs:      docs, pages: pagesLines}),
		want: []string{g0 + "/evidence_sha256", "eval/questions.jsonl:2:/gold_evidence_groups/0/evidence_sha256", "eval/anchored_judgments.jsonl:1:/evidence_sha256"},
		msg:  "expected " + spanSHA},
	{name: "evidence_text alone, no documents", code: "rag.sha256-mismatch", ds: ragDS(ragFiles{
		questions: []string{anchorQ("evidence_text", "other text", "evidence_sha256", spanSHA)}}),
		want: []string{g0 + "/evidence_sha256"}, msg: "whose sha256 is " + otherSHA},

	{name: "text equals span", code: "rag.evidence-text-mismatch", ds: ragDS(ragFiles{questions: []string{anchorQ("evidence_text", "铜矿品位为0.86%")}, docs: docs})},
	{name: "text differs", code: "rag.evidence-text-mismatch", ds: ragDS(ragFiles{questions: []string{anchorQ("evidence_text", "铜矿品位为0.8%")}, docs: docs}),
		want: []string{g0 + "/evidence_text"}},

	{name: "null reference", code: "rag.unanswerable-reference", ds: ragDS(ragFiles{questions: []string{unansRAG}})},
	{name: "reference given", code: "rag.unanswerable-reference", ds: ragDS(ragFiles{questions: []string{patch(unansRAG, "reference_answer", "12 t")}}),
		want: []string{"eval/questions.jsonl:1:/reference_answer"}},

	{name: "no evidence, or optional evidence", code: "rag.unanswerable-evidence", ds: ragDS(ragFiles{questions: []string{
		unansRAG, patch(goodRAG, "qid", "q2", "answerable", false, "reference_answer", nil, "gold_evidence_groups/0/required", false),
	}})},
	{name: "required evidence (default)", code: "rag.unanswerable-evidence", ds: ragDS(ragFiles{questions: []string{
		patch(goodRAG, "answerable", false, "reference_answer", nil, "gold_evidence_groups/0/required", del),
	}}),
		want: []string{g0}},

	{name: "required group", code: "rag.answerable-evidence", ds: ragDS(ragFiles{questions: []string{goodRAG}})},
	{name: "no group, only optional", code: "rag.answerable-evidence", ds: ragDS(ragFiles{questions: []string{
		patch(goodRAG, "gold_evidence_groups", raw(`[]`)), patch(goodRAG, "qid", "q2", "gold_evidence_groups/0/required", false),
	}}),
		want: []string{"eval/questions.jsonl:1:/gold_evidence_groups", "eval/questions.jsonl:2:/gold_evidence_groups"}},

	{name: "grades 0 and 3", code: "rag.judgment-grade", ds: ragDS(ragFiles{questions: []string{goodRAG}, judgments: []string{goodJudg, patch(goodJudg, "grade", 0)}})},
	{name: "grade 4 and -1", code: "rag.judgment-grade", ds: ragDS(ragFiles{questions: []string{goodRAG}, judgments: []string{goodJudg, patch(goodJudg, "grade", 4), patch(goodJudg, "grade", -1)}}),
		want: []string{"eval/anchored_judgments.jsonl:2:/grade", "eval/anchored_judgments.jsonl:3:/grade"}},

	{name: "known qids", code: "rag.unknown-qid", ds: ragDS(ragFiles{questions: []string{goodRAG}, judgments: []string{goodJudg}, preds: []string{goodPred}})},
	{name: "a question that could not be read still names its qid", code: "rag.unknown-qid", ds: func() *dataset.Dataset {
		ds := ragDS(ragFiles{questions: []string{goodRAG}, judgments: []string{goodJudg}, preds: []string{goodPred}})()
		// the reader left it untyped (its format.decode finding is the one defect)
		for i := range ds.RAG {
			ds.RAG[i].Typed = false
		}
		return ds
	}},
	{name: "unknown qids", code: "rag.unknown-qid", ds: ragDS(ragFiles{questions: []string{goodRAG}, judgments: []string{patch(goodJudg, "qid", "q9")}, preds: []string{goodPred, patch(goodPred, "qid", "q9")}}),
		want: []string{"eval/anchored_judgments.jsonl:1:/qid", "runs/r1/predictions.jsonl:2:/qid"}},

	{name: "questions loaded", code: "rag.questions-absent", ds: ragDS(ragFiles{questions: []string{goodRAG}, judgments: []string{goodJudg}})},
	{name: "questions absent", code: "rag.questions-absent", ds: ragDS(ragFiles{judgments: []string{goodJudg, goodJudg}, preds: []string{goodPred}}),
		want: []string{"eval/anchored_judgments.jsonl:0:", "runs/r1/predictions.jsonl:0:"}},

	{name: "chunks exist", code: "rag.unknown-chunk", ds: ragDS(ragFiles{preds: []string{goodPred}, chunks: []string{goodChunk, patch(goodChunk, "chunk_id", "c2")}})},
	{name: "two unknown chunk ids", code: "rag.unknown-chunk", ds: ragDS(ragFiles{
		preds:  []string{patch(goodPred, "retrieved_chunk_ids", raw(`["c1","cX"]`), "citations", raw(`[{"label":"S1","chunk_id":"cY"}]`))},
		chunks: []string{goodChunk}}),
		want: []string{"runs/r1/predictions.jsonl:1:/retrieved_chunk_ids/1"}, msg: `2 of 3 chunk ids are not in chunks.jsonl (first: "cX")`},

	{name: "one prediction per qid and run", code: "rag.prediction-duplicate", ds: ragDS(ragFiles{questions: []string{goodRAG},
		preds: []string{goodPred, patch(goodPred, "run_id", "other")}})},
	{name: "a qid predicted twice", code: "rag.prediction-duplicate", ds: ragDS(ragFiles{questions: []string{goodRAG},
		preds: []string{goodPred, patch(goodPred, "retrieved_chunk_ids", raw(`["c2"]`))}}),
		want: []string{"runs/r1/predictions.jsonl:2:/qid"}, msg: `already has a prediction for qid "q_test_0042" (first at runs/r1/predictions.jsonl:1)`},

	{name: "distinct ranked ids", code: "rag.ranked-duplicate", ds: ragDS(ragFiles{preds: []string{goodPred}})},
	{name: "repeated ranked ids", code: "rag.ranked-duplicate", ds: ragDS(ragFiles{preds: []string{
		patch(goodPred, "retrieved_chunk_ids", raw(`["c1","c2","c1"]`)),
		patch(goodPred, "qid", "q2", "reranked_chunk_ids", raw(`["c2","c2"]`)),
	}}),
		want: []string{"runs/r1/predictions.jsonl:1:/retrieved_chunk_ids/2", "runs/r1/predictions.jsonl:2:/reranked_chunk_ids/1"},
		msg:  `retrieved_chunk_ids repeats "c1" at position 2 (first at 0)`},

	{name: "one score per id, or none", code: "rag.scores-length", ds: ragDS(ragFiles{preds: []string{goodPred,
		patch(goodPred, "qid", "q2", "vector_scores", raw(`[0.9,0.8]`))}})},
	{name: "scores and ids differ in length", code: "rag.scores-length", ds: ragDS(ragFiles{preds: []string{
		patch(goodPred, "vector_scores", raw(`[0.9]`)),
		patch(goodPred, "qid", "q2", "reranked_chunk_ids", raw(`["c2"]`), "rerank_scores", raw(`[0.9,0.1]`)),
	}}),
		want: []string{"runs/r1/predictions.jsonl:1:/vector_scores", "runs/r1/predictions.jsonl:2:/rerank_scores"}},

	{name: "descending scores, ties allowed", code: "rag.scores-order", ds: ragDS(ragFiles{preds: []string{
		patch(goodPred, "vector_scores", raw(`[0.9,0.9]`)),
		patch(goodPred, "qid", "q2", "reranked_chunk_ids", raw(`["c2","c1"]`), "rerank_scores", raw(`[0.7,0.2]`)),
	}})},
	{name: "a score higher than the one before", code: "rag.scores-order", ds: ragDS(ragFiles{preds: []string{
		patch(goodPred, "vector_scores", raw(`[0.2,0.9]`)),
	}}),
		want: []string{"runs/r1/predictions.jsonl:1:/vector_scores/1"}, msg: `vector_scores is not descending: 0.9 at position 1 follows 0.2; the list is scored in score order, so "c2" ranks before "c1"`},

	{name: "seed-003 grades, TREC grades elsewhere", code: "rag.qrels-grade", ds: withQrels(ragDS(ragFiles{questions: []string{goodRAG}}),
		dataset.QrelsFile{Path: "runs/r1/qrels.tsv", Judgments: []dataset.Qrel{{Line: 2, QID: "q_test_0042", DocNo: "c1", Grade: 3}, {Line: 3, QID: "q_test_0042", DocNo: "c2", Grade: 0}}},
		dataset.QrelsFile{Path: "trec.qrels", Judgments: []dataset.Qrel{{Line: 1, QID: "301", DocNo: "d1", Grade: 5}}})},
	{name: "grade 5 on a seed-003 question", code: "rag.qrels-grade", ds: withQrels(ragDS(ragFiles{questions: []string{goodRAG}}),
		dataset.QrelsFile{Path: "runs/r1/qrels.tsv", Judgments: []dataset.Qrel{{Line: 2, QID: "q_test_0042", DocNo: "c1", Grade: 5}}}),
		want: []string{"runs/r1/qrels.tsv:2:"}},
	{name: "qids of questions", code: "rag.qrels-qid", ds: withQrels(ragDS(ragFiles{questions: []string{goodRAG}}),
		dataset.QrelsFile{Path: "runs/r1/qrels.tsv", Judgments: []dataset.Qrel{{Line: 2, QID: "q_test_0042", DocNo: "c1", Grade: 3}}},
		dataset.QrelsFile{Path: "trec.qrels", Judgments: []dataset.Qrel{{Line: 1, QID: "301", DocNo: "d1", Grade: 1}}})},
	{name: "a typo among seed-003 qids, reported once", code: "rag.qrels-qid", ds: withQrels(ragDS(ragFiles{questions: []string{goodRAG}}),
		dataset.QrelsFile{Path: "runs/r1/qrels.tsv", Judgments: []dataset.Qrel{{Line: 2, QID: "q_test_0042", DocNo: "c1", Grade: 3},
			{Line: 3, QID: "q_test_0024", DocNo: "c1", Grade: 3}, {Line: 4, QID: "q_test_0024", DocNo: "c2", Grade: 1}}}),
		want: []string{"runs/r1/qrels.tsv:3:"}},

	{name: "approved documents retrieved", code: "rag.retrieved-unapproved", ds: ragDS(ragFiles{docs: []string{goodDoc, patch(countDoc, "review_state", "QUARANTINED_LOCAL_REVIEW")},
		chunks: []string{goodChunk, patch(goodChunk, "chunk_id", "q1", "doc_id", "doc_count", "searchable", del)}, preds: []string{goodPred}})},
	{name: "a quarantined document's chunk retrieved", code: "rag.retrieved-unapproved", ds: ragDS(ragFiles{docs: []string{goodDoc, patch(countDoc, "review_state", "QUARANTINED_LOCAL_REVIEW")},
		chunks: []string{goodChunk, patch(goodChunk, "chunk_id", "q1", "doc_id", "doc_count", "searchable", del)},
		preds:  []string{patch(goodPred, "retrieved_chunk_ids", raw(`["c1","q1"]`))}}),
		want: []string{"runs/r1/predictions.jsonl:1:/retrieved_chunk_ids/1"}, msg: `1 chunk id(s) belong to documents that are not approved (first: "q1" of "doc_count", which is QUARANTINED_LOCAL_REVIEW`},

	{name: "observed_at readable", code: "id.observed-at", ds: ragDS(ragFiles{chunks: []string{patch(goodChunk, "observed_at", "2024-01-01T00:00:00+0800"),
		patch(goodChunk, "chunk_id", "c2", "observed_at", "2024-01-01t00:00:00z")}})},
	{name: "observed_at unreadable", code: "id.observed-at", ds: ragDS(ragFiles{chunks: []string{patch(goodChunk, "observed_at", "yesterday"),
		patch(goodChunk, "chunk_id", "c2", "observed_at", "2024-01-01")}}),
		want: []string{"data/chunks.jsonl:1:/observed_at", "data/chunks.jsonl:2:/observed_at"}},

	{name: "unique table rows", code: "id.table-duplicate", ds: ragDS(ragFiles{docs: []string{goodDoc, countDoc},
		chunks: []string{goodChunk, patch(goodChunk, "chunk_id", "c2")}})},
	{name: "a chunk and a document defined twice", code: "id.table-duplicate", ds: ragDS(ragFiles{docs: []string{goodDoc, goodDoc},
		chunks: []string{goodChunk, patch(goodChunk, "chunk_id", "c2"), patch(goodChunk, "doc_id", "other")}}),
		want: []string{"data/chunks.jsonl:3:/chunk_id", "data/documents.jsonl:2:/doc_id"},
		msg:  `chunk_id "c1" is defined again (first at line 1); only the first row is used`},

	{name: "chunks loaded", code: "rag.chunks-absent", ds: ragDS(ragFiles{preds: []string{goodPred}, chunks: []string{goodChunk}})},
	{name: "chunks absent", code: "rag.chunks-absent", ds: ragDS(ragFiles{preds: []string{goodPred, goodPred}}),
		want: []string{"runs/r1/predictions.jsonl:0:"}},

	{name: "approved or not searchable", code: "rag.searchable-unapproved", ds: ragDS(ragFiles{
		docs:   []string{goodDoc, patch(countDoc, "review_state", "QUARANTINED_LOCAL_REVIEW", "searchable", false)},
		chunks: []string{goodChunk, patch(goodChunk, "chunk_id", "c9", "doc_id", "doc_count", "searchable", false)}})},
	{name: "searchable before approval", code: "rag.searchable-unapproved", ds: ragDS(ragFiles{
		docs: []string{goodDoc, patch(countDoc, "review_state", "LOCAL_PARSED_PENDING_CLOUD_REVIEW", "searchable", true),
			patch(pagedDoc, "searchable", true)},
		chunks: []string{goodChunk, patch(goodChunk, "chunk_id", "c9", "doc_id", "doc_count")}}),
		want: []string{"data/documents.jsonl:2:/searchable", "data/documents.jsonl:3:/searchable", "data/chunks.jsonl:2:/searchable"}},
}

func configDS(config string, inputs ...dataset.InputInfo) func() *dataset.Dataset {
	return func() *dataset.Dataset {
		ds := newDS(model.FormatRAGConfig)
		ds.Inputs = inputs
		ds.Configs = append(ds.Configs, rec[model.RAGConfig]("runs/r1/config.yaml", 0, config))
		return ds
	}
}

var configCases = []ruleCase{
	{name: "hash matches", code: "rag.config-hash",
		ds: configDS(`{"corpus_manifest_sha256":"sha256:`+shaX+`","qrels_sha256":null}`,
			dataset.InputInfo{Path: "data/documents.jsonl", Format: model.FormatRAGDocument, SHA256: shaX})},
	{name: "nothing to compare", code: "rag.config-hash", ds: configDS(`{"judgment_set_sha256":"` + shaY + `"}`)},
	{name: "hash differs", code: "rag.config-hash",
		ds: configDS(`{"corpus_manifest_sha256":"`+shaY+`","judgment_set_sha256":"`+shaY+`"}`,
			dataset.InputInfo{Path: "data/documents.jsonl", Format: model.FormatRAGDocument, SHA256: shaX},
			dataset.InputInfo{Path: "eval/anchored_judgments.jsonl", Format: model.FormatRAGJudgment, SHA256: shaY}),
		want: []string{"runs/r1/config.yaml:0:/corpus_manifest_sha256"}},
	{name: "every frozen key", code: "rag.config-unfrozen", ds: configDS(frozenConfig(nil))},
	// unknown is the seed's word for a value that cannot be known; null is
	// accepted for a stage the run does not have
	{name: "unknown and null", code: "rag.config-unfrozen", ds: configDS(frozenConfig(map[string]any{"git_commit": "unknown", "rerank_model": nil, "embedding_profile_hash": nil}))},
	{name: "a key absent", code: "rag.config-unfrozen", ds: configDS(frozenConfig(map[string]any{"random_seed": "<absent>", "ocr_model": "<absent>"})),
		want: []string{"runs/r1/config.yaml:0:"}},
	{name: "a taxonomy code", code: "rag.error-code", ds: errorsDS(goodError)},
	{name: "not a taxonomy code", code: "rag.error-code", ds: errorsDS(patch(goodError, "code", "NOT_A_CODE")), want: []string{"runs/r1/errors.jsonl:1:/code"}},
	{name: "a known qid", code: "rag.error-qid", ds: errorsDS(goodError)},
	{name: "an unknown qid", code: "rag.error-qid", ds: errorsDS(goodError, patch(goodError, "qid", "q_nope")), want: []string{"runs/r1/errors.jsonl:2:/qid"}},
	{name: "every §9 field", code: "rag.error-fields", ds: errorsDS(goodError)},
	{name: "§9 fields missing", code: "rag.error-fields", ds: errorsDS(`{"qid":"q_test_0042","code":"GEN_OMISSION"}`), want: []string{"runs/r1/errors.jsonl:1:"}},
	{name: "facts within total", code: "rag.grade-facts", ds: gradesDS(goodGrade)},
	{name: "more facts supported than stated", code: "rag.grade-facts", ds: gradesDS(patch(goodGrade, "facts_supported", 5)), want: []string{"eval/human_grades.jsonl:1:/facts_supported"}},
	{name: "a graded qid", code: "rag.grade-qid", ds: gradesDS(goodGrade)},
	{name: "an unknown graded qid", code: "rag.grade-qid", ds: gradesDS(goodGrade, patch(goodGrade, "qid", "q_x")), want: []string{"eval/human_grades.jsonl:2:/qid"}},
	{name: "an identity key blank", code: "rag.config-unfrozen", ds: configDS(frozenConfig(map[string]any{"judgment_set_sha256": nil, "prompt_hash": ""})),
		want: []string{"runs/r1/config.yaml:0:/judgment_set_sha256"}},
}

// goodError is an errors.jsonl record with every field seed 003 §9 lists.
const goodError = `{"qid":"q_test_0042","run_id":"r1","code":"GEN_OMISSION","expected":"0.86%","actual":"about 1%","retrieved_chunk_ids":["c1"],"answer":"about 1%","citations":[],"root_cause":"the evidence says 0.86%; the answer rounds it","severity":"medium","suggested_fix":"keep the evidence's precision"}`

// goodGrade is one reviewer's grade of run r1's answer to the good question.
const goodGrade = `{"qid":"q_test_0042","run_id":"r1","reviewer":"rev-a","expert_grade":2,"facts_supported":3,"facts_total":4,"adjudication":"independent"}`

func gradesDS(lines ...string) func() *dataset.Dataset {
	return func() *dataset.Dataset {
		ds := ragDS(ragFiles{questions: []string{goodRAG}})()
		ds.Has[model.FormatRAGGrades] = true
		for i, l := range lines {
			ds.Grades = append(ds.Grades, rec[model.RAGGrade]("eval/human_grades.jsonl", i+1, l))
		}
		return ds
	}
}

// errorsDS is the good question with errors.jsonl lines of run r1.
func errorsDS(lines ...string) func() *dataset.Dataset {
	return func() *dataset.Dataset {
		ds := ragDS(ragFiles{questions: []string{goodRAG}})()
		ds.Has[model.FormatRAGErrors] = true
		for i, l := range lines {
			ds.Errors = append(ds.Errors, rec[model.RAGError]("runs/r1/errors.jsonl", i+1, l))
		}
		return ds
	}
}

// frozenConfig is a config.yaml (as JSON) with every key of seed 003 §10's
// "at least freeze" list, typed by hand from the seed (not from
// FrozenConfigKeys), with over replacing values ("<absent>" drops a key).
func frozenConfig(over map[string]any) string {
	keys := strings.Fields(`dataset_version dataset_sha256 anchored_judgments_schema_version judgment_set_version
		judgment_set_sha256 corpus_manifest_sha256 git_commit docker_image_digest database_schema_version
		parser_version parser_config_hash anchor_resolver_version anchor_resolution_sha256 qrels_sha256
		ocr_model chunk_size chunk_overlap chunk_profile_hash embedding_model embedding_dimension
		embedding_index_namespace embedding_api_mode embedding_profile_hash embedding_endpoint_region
		embedding_endpoint_identity_hash embedding_requested_revision embedding_resolved_revision
		embedding_cache_epoch vector_distance retrieval_mode retrieval_top_k hnsw_ef_search
		hnsw_iterative_scan ann_overfetch_k lexical_analyzer_version hybrid_fusion hybrid_dense_weight
		hybrid_lexical_weight rrf_k rerank_model rerank_api_mode rerank_endpoint_identity_hash
		rerank_resolved_revision rerank_cache_epoch rerank_top_n context_top_n max_context_tokens
		rerank_instruct_hash generator_model generator_api_mode generator_endpoint_identity_hash
		generator_resolved_revision generator_cache_epoch provider_capability_fingerprint prompt_hash
		enable_thinking enable_search temperature top_p max_output_tokens random_seed`)
	m := map[string]any{}
	for _, k := range keys {
		m[k] = "v-" + k
	}
	for k, v := range over {
		if v == "<absent>" {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// withQrels adds TREC qrels files to the dataset of ds.
func withQrels(ds func() *dataset.Dataset, qf ...dataset.QrelsFile) func() *dataset.Dataset {
	return func() *dataset.Dataset {
		d := ds()
		d.Has[model.FormatTRECQrels] = true
		d.Qrels = append(d.Qrels, qf...)
		return d
	}
}

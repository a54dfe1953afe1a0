package validate

// Fixtures of issue 11's rules: chunks.jsonl against its documents, the
// review gate of seed 003 §1.2, contradictory annotations.

// tenDoc is 10 code points ("0123456789") on 1 page; docText (goodDoc) is
// 32 code points, 40 pages; doc_count has char_count 50; doc_paged has
// pages 1 and 2 in pagesLines, ending at 180.
const tenDoc = `{"doc_id":"doc_ten","title":"ten","document_version_id":"v1","text":"0123456789","page_count":1}`

// okGroup is a required group on goodDoc's first 10 code points.
const okGroup = `{"required":true,"doc_id":"doc_demo_001","document_version_id":"docver_demo_001","char_start":0,"char_end":10}`

var chunkDocs = []string{goodDoc, countDoc, pagedDoc, tenDoc}

var fidelityCases = []ruleCase{
	{name: "chunks of known documents and versions", code: "rag.chunk-document", ds: ragDS(ragFiles{docs: chunkDocs, chunks: []string{
		goodChunk,
		`{"chunk_id":"c2","doc_id":"doc_demo_001","document_version_id":"docver_demo_001"}`,
		`{"chunk_id":"c3","doc_id":"doc_count","document_version_id":"any"}`, // doc_count lists no version
	}})},
	{name: "unknown doc, unknown version", code: "rag.chunk-document", ds: ragDS(ragFiles{docs: chunkDocs, chunks: []string{
		goodChunk,
		`{"chunk_id":"c2","doc_id":"doc_x","char_start":0,"char_end":300}`,
		`{"chunk_id":"c3","doc_id":"doc_ten","document_version_id":"v2","char_start":0,"char_end":300}`,
	}}), want: []string{"data/chunks.jsonl:2:/doc_id", "data/chunks.jsonl:3:/document_version_id"}, msg: `version "v2" of doc_ten`},

	// [0, 10) fits the 10-character text; [0, 300) does not (issue 11:
	// "offsets 0–300 on a 10-character text"); [40, 50) fits char_count 50,
	// [40, 51) does not; [170, 181) passes doc_paged's last page end 180.
	{name: "chunks inside their documents", code: "rag.chunk-offsets", ds: ragDS(ragFiles{docs: chunkDocs, pages: pagesLines, chunks: []string{
		`{"chunk_id":"c1","doc_id":"doc_ten","char_start":0,"char_end":10}`,
		`{"chunk_id":"c2","doc_id":"doc_count","char_start":40,"char_end":50}`,
		`{"chunk_id":"c3","doc_id":"doc_paged","char_start":170,"char_end":180}`,
	}})},
	{name: "chunks past the end, reversed, half", code: "rag.chunk-offsets", ds: ragDS(ragFiles{docs: chunkDocs, pages: pagesLines, chunks: []string{
		`{"chunk_id":"c1","doc_id":"doc_ten","char_start":0,"char_end":300}`,
		`{"chunk_id":"c2","doc_id":"doc_count","char_start":40,"char_end":51}`,
		`{"chunk_id":"c3","doc_id":"doc_paged","char_start":170,"char_end":181}`,
		`{"chunk_id":"c4","doc_id":"doc_ten","char_start":5,"char_end":5}`,
		`{"chunk_id":"c5","doc_id":"doc_ten","char_start":5}`,
	}}), want: []string{"data/chunks.jsonl:1:/char_end", "data/chunks.jsonl:2:/char_end", "data/chunks.jsonl:3:/char_end",
		"data/chunks.jsonl:4:/char_end", "data/chunks.jsonl:5:/char_start"}, msg: "ends past the end of doc_ten (10 characters)"},
	{name: "shape checked without documents", code: "rag.chunk-offsets", ds: ragDS(ragFiles{chunks: []string{
		`{"chunk_id":"c1","doc_id":"doc_ten","char_start":0,"char_end":300}`,
		`{"chunk_id":"c2","doc_id":"doc_ten","char_start":9,"char_end":3}`,
	}}), want: []string{"data/chunks.jsonl:2:/char_end"}},

	{name: "chunks on their documents' pages", code: "rag.chunk-page", ds: ragDS(ragFiles{docs: chunkDocs, pages: pagesLines, chunks: []string{
		`{"chunk_id":"c1","doc_id":"doc_ten","page_no":1}`,
		`{"chunk_id":"c2","doc_id":"doc_paged","page_no":2}`,
		`{"chunk_id":"c3","doc_id":"doc_count","page_no":7}`, // no page count, no pages: not checked
	}})},
	// issue 11: "page 9 of a 1-page document"; doc_paged has pages 1, 2 only.
	{name: "page past the end", code: "rag.chunk-page", ds: ragDS(ragFiles{docs: chunkDocs, pages: pagesLines, chunks: []string{
		`{"chunk_id":"c1","doc_id":"doc_ten","page_no":9}`,
		`{"chunk_id":"c2","doc_id":"doc_paged","page_no":3}`,
	}}), want: []string{"data/chunks.jsonl:1:/page_no", "data/chunks.jsonl:2:/page_no"}, msg: "page_no 9 is past the end of doc_ten (1 pages)"},

	// Review gate, seed 003 §1.2: 只有审核人批准这一个确切 bundle 后才能进入
	// CLOUD_APPROVED, and the approval binds raw_sha256 + the four profile
	// hashes + cloud_policy_id + outbound_manifest_sha256.
	{name: "a bound approval; unapproved documents are not checked", code: "rag.approval-void", ds: ragDS(ragFiles{docs: []string{
		goodDoc, patch(countDoc, "review_state", "QUARANTINED_LOCAL_REVIEW", "security_review", "pending"), pagedDoc,
	}})},
	{name: "failed review, no approver, no manifest, seed 1.3's empty example", code: "rag.approval-void", ds: ragDS(ragFiles{docs: []string{
		patch(goodDoc, "security_review", "failed"),
		patch(goodDoc, "doc_id", "d2", "cloud_approved_by", ""),
		patch(goodDoc, "doc_id", "d3", "outbound_manifest_sha256", ""),
		// seed 003 §1.3's example: CLOUD_APPROVED, security_review passed,
		// every hash and the approver "" (cloud_policy_id set)
		`{"doc_id":"doc_demo_001x","title":"某地区铜矿","raw_sha256":"","security_review":"passed","review_state":"CLOUD_APPROVED","cloud_policy_id":"cloud-policy-v1","cloud_text_sha256":"","outbound_manifest_sha256":"","parser_profile_hash":"","ocr_profile_hash":"","normalization_profile_hash":"","chunk_profile_hash":"","cloud_approved_at":"2026-07-11T00:00:00Z","cloud_approved_by":""}`,
	}}), want: []string{"data/documents.jsonl:1:/security_review", "data/documents.jsonl:2:/cloud_approved_by",
		"data/documents.jsonl:3:/outbound_manifest_sha256", "data/documents.jsonl:4:/cloud_approved_by"},
		msg: "does not bind cloud_approved_by, raw_sha256, parser_profile_hash, ocr_profile_hash, normalization_profile_hash, chunk_profile_hash, outbound_manifest_sha256"},

	{name: "evidence in approved documents; optional evidence elsewhere", code: "rag.evidence-unapproved", ds: ragDS(ragFiles{
		docs:      []string{goodDoc, patch(countDoc, "review_state", "QUARANTINED_LOCAL_REVIEW")},
		questions: []string{goodRAG, unansRAG, patch(goodRAG, "qid", "q2", "gold_evidence_groups", raw(`[`+okGroup+`,{"required":false,"doc_id":"doc_count","char_start":0,"char_end":5}]`))},
	})},
	// doc_count has no review_state (unknown → deny); goodDoc with a failed
	// security review is no approval; q4 needs doc_demo_001 and the
	// quarantined doc_paged (1 of 2 required groups).
	{name: "evidence in unset, void and quarantined documents", code: "rag.evidence-unapproved", ds: ragDS(ragFiles{
		docs: []string{patch(goodDoc, "security_review", "failed"), countDoc, patch(pagedDoc, "review_state", "QUARANTINED_LOCAL_REVIEW"),
			patch(goodDoc, "doc_id", "doc_ok")},
		questions: []string{
			goodRAG,
			patch(anchorQ("doc_id", "doc_count", "document_version_id", "", "evidence_sha256", ""), "qid", "q2"),
			patch(anchorQ("doc_id", "doc_ok"), "qid", "q3"),
			patch(goodRAG, "qid", "q4", "gold_evidence_groups", raw(`[{"required":true,"doc_id":"doc_ok","char_start":0,"char_end":10},{"required":true,"doc_id":"doc_paged","char_start":0,"char_end":5}]`)),
		},
	}), want: []string{"eval/questions.jsonl:1:/gold_evidence_groups/0/doc_id", "eval/questions.jsonl:2:/gold_evidence_groups/0/doc_id",
		"eval/questions.jsonl:4:/gold_evidence_groups/1/doc_id"}, msg: `"doc_count" has no review_state`},

	// a chunk of a document with no review_state was not reported before
	// (unset counted as approved); unknown → deny.
	{name: "a chunk of a document without review_state retrieved", code: "rag.retrieved-unapproved", ds: ragDS(ragFiles{docs: []string{goodDoc, countDoc},
		chunks: []string{goodChunk, patch(goodChunk, "chunk_id", "q1", "doc_id", "doc_count", "searchable", del)},
		preds:  []string{patch(goodPred, "retrieved_chunk_ids", raw(`["c1","q1"]`))}}),
		want: []string{"runs/r1/predictions.jsonl:1:/retrieved_chunk_ids/1"}, msg: `which has no review_state`},

	// issue 11: the same question about one document, once answerable with
	// gold (goodB2: mmlongbench:PH_2016.pdf p.5) and once unanswerable with
	// empty gold. The unanswerable copy names the document in its query_id.
	{name: "the same question on another document, or both answerable", code: "b2.contradictory-annotation", ds: b2(
		goodB2,
		patch(unanswerableB2, "query_id", "mmlongbench:Other_2017.pdf:3", "question", "What share of adults said the economy was improving?"),
		patch(goodB2, "query_id", "mmlongbench:PH_2016.pdf:1", "gold/0/region", raw(`{"page":6}`)),
		unanswerableB2,
		// the document's id is a part of the query_id, not any substring
		// of it: PH_2016.pdf.v2 is another document than PH_2016.pdf
		patch(unanswerableB2, "query_id", "mmlongbench:PH_2016.pdf.v2:4", "question", "What share of adults said the economy was improving?"),
	)},
	{name: "answerable and unanswerable on one document", code: "b2.contradictory-annotation", ds: b2(
		goodB2,
		// same text up to case and spacing (NormalizeText)
		patch(unanswerableB2, "query_id", "mmlongbench:PH_2016.pdf:7", "question", "what share of  adults said the economy was improving?"),
	), want: []string{"sets/b2.jsonl:2:/unanswerable"}, msg: `asks the same question about mmlongbench:PH_2016.pdf as sets/b2.jsonl:1`},
}

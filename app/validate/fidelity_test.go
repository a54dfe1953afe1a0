package validate

// Fixtures of issue 11's rules: chunks.jsonl against its documents, the
// review gate of seed 003 §1.2, contradictory annotations.

// tenDoc is 10 code points ("0123456789") on 1 page; docText (goodDoc) is
// 32 code points, 40 pages; doc_count has char_count 50; doc_paged has
// pages 1 and 2 in pagesLines, ending at 180.
const tenDoc = `{"doc_id":"doc_ten","title":"ten","document_version_id":"v1","text":"0123456789","page_count":1}`

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
}

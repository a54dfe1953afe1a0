package validate

import (
	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/model"
)

// chunks.jsonl against the documents it cuts. Gold evidence and anchored
// judgments resolve to these chunks (seed 003 §4.3: anchors are mapped onto
// each run's chunks to make its qrels), so a chunk that names no document,
// or a span or page its document does not have, makes the run's qrels wrong
// in silence: each is an error at the chunk's line.

var (
	ruleRAGChunkDocument = register(finding.Rule{
		Code:        "rag.chunk-document",
		Severity:    finding.Error,
		Description: "A chunk's doc_id is in documents.jsonl and, when the document lists versions, its document_version_id is one of them.",
		Source:      "seed 003 §4.3 (anchors mapped onto each run's chunks), §7 (searchable 切片可追溯当前文档版本/页码 100%)",
		Hint:        "Fix the chunk's doc_id / document_version_id, or load the documents.jsonl of the corpus that was chunked.",
		Family:      "rag",
	})
	ruleRAGChunkOffsets = register(finding.Rule{
		Code:        "rag.chunk-offsets",
		Severity:    finding.Error,
		Description: "A chunk's char_start/char_end come together, 0 ≤ char_start < char_end, and end inside its document (text length, else char_count, else the end of its last page).",
		Source:      "seed 003 §4.3 (doc/version/page/char offsets → chunks), §7 (切片可追溯)",
		Hint:        "Write the chunk's extent in code points of its document version's text, [char_start, char_end); re-export chunks.jsonl from the chunker that cut this document.",
		Family:      "rag",
	})
	ruleRAGChunkPage = register(finding.Rule{
		Code:        "rag.chunk-page",
		Severity:    finding.Error,
		Description: "A chunk's page_no is ≥ 1 and a page of its document (≤ page_count, or among its pages in pages.jsonl).",
		Source:      "seed 003 §2.2 (入库切片可追溯页码 100%), §7",
		Hint:        "Give the chunk the (1-based) page of its document it starts on.",
		Family:      "rag",
	})
)

// checkChunks checks every typed line of chunks.jsonl against the loaded
// documents and pages. Linear: one lookup per chunk, each document's length
// and page set computed once.
func (c *checker) checkChunks(ix *ragIndex) {
	if len(c.ds.Chunks) == 0 {
		return
	}
	once := onceSet{}
	pageSets := map[string]map[int]bool{}
	type docLen struct {
		n  int
		ok bool
	}
	lengths := map[*model.RAGDocument]docLen{}
	for i := range c.ds.Chunks {
		r := &c.ds.Chunks[i]
		if !r.Typed {
			continue
		}
		ch := &r.V
		at := func(rule *finding.Rule, p string, format string, args ...any) {
			c.add(rule.At(c.ds.Path(r.Loc), int(r.Line), p, format, args...))
		}
		spanOK := false
		switch {
		case ch.CharStart == nil && ch.CharEnd == nil:
		case ch.CharStart == nil:
			at(ruleRAGChunkOffsets, "/char_end", "chunk %q has char_end without char_start", ch.ChunkID)
		case ch.CharEnd == nil:
			at(ruleRAGChunkOffsets, "/char_start", "chunk %q has char_start without char_end", ch.ChunkID)
		case *ch.CharStart < 0:
			at(ruleRAGChunkOffsets, "/char_start", "chunk %q: char_start %d is negative", ch.ChunkID, *ch.CharStart)
		case *ch.CharStart >= *ch.CharEnd:
			at(ruleRAGChunkOffsets, "/char_end", "chunk %q: span [%d, %d) is empty or reversed: need char_start < char_end", ch.ChunkID, *ch.CharStart, *ch.CharEnd)
		default:
			spanOK = true
		}
		pageOK := ch.PageNo == nil || *ch.PageNo >= 1
		if !pageOK {
			at(ruleRAGChunkPage, "/page_no", "chunk %q: page_no %d is not ≥ 1", ch.ChunkID, *ch.PageNo)
		}
		if !ix.haveDocs {
			if once.first(ruleRAGDocsAbsent.Code, c.ds.Path(r.Loc)) {
				c.add(ruleRAGDocsAbsent.At(c.ds.Path(r.Loc), 0, "", "no documents.jsonl was loaded, so the doc_ids, offsets and pages of this chunk file are checked only for their shape"))
			}
			continue
		}
		doc := ix.chunkDoc(ch)
		switch {
		case doc == nil && len(ix.docs[ch.DocID]) == 0:
			at(ruleRAGChunkDocument, "/doc_id", "chunk %q names doc_id %q, which is not in documents.jsonl", ch.ChunkID, ch.DocID)
			continue
		case doc == nil:
			at(ruleRAGChunkDocument, "/document_version_id", "chunk %q names version %q of %s, which documents.jsonl does not have (it has %s); its offsets and page are not checked",
				ch.ChunkID, ch.DocumentVersionID, ch.DocID, listSome(docVersions(ix.docs[ch.DocID])))
			continue
		}
		d := &doc.V
		pages := ix.pages[ch.DocID]
		if ch.PageNo != nil && pageOK {
			switch {
			case d.PageCount != nil:
				if *ch.PageNo > *d.PageCount {
					at(ruleRAGChunkPage, "/page_no", "chunk %q: page_no %d is past the end of %s (%d pages)", ch.ChunkID, *ch.PageNo, ch.DocID, *d.PageCount)
				}
			case len(pages) > 0:
				set := pageSets[ch.DocID]
				if set == nil {
					set = map[int]bool{}
					for _, p := range pages {
						set[p.V.PageNo] = true
					}
					pageSets[ch.DocID] = set
				}
				if !set[*ch.PageNo] {
					at(ruleRAGChunkPage, "/page_no", "chunk %q: page_no %d of %s is not in pages.jsonl", ch.ChunkID, *ch.PageNo, ch.DocID)
				}
			}
		}
		if !spanOK {
			continue
		}
		l, seen := lengths[d]
		if !seen {
			l.n, l.ok = ix.docLength(d, pages)
			lengths[d] = l
		}
		if l.ok && *ch.CharEnd > l.n {
			at(ruleRAGChunkOffsets, "/char_end", "chunk %q: span [%d, %d) ends past the end of %s (%d characters)", ch.ChunkID, *ch.CharStart, *ch.CharEnd, ch.DocID, l.n)
		}
	}
}

// chunkDoc is the document line a chunk cuts: the one of its version, or
// the first of its doc_id when the chunk names no version or the document
// lists none; nil when the doc_id is unknown or the version is not listed.
func (ix *ragIndex) chunkDoc(ch *model.RAGChunk) *dataset.Rec[model.RAGDocument] {
	cands := ix.docs[ch.DocID]
	if len(cands) == 0 {
		return nil
	}
	if ch.DocumentVersionID == "" {
		return cands[0]
	}
	if len(docVersions(cands)) == 0 {
		return cands[0]
	}
	for _, d := range cands {
		if d.V.DocumentVersionID == ch.DocumentVersionID {
			return d
		}
	}
	return nil
}

func docVersions(cands []*dataset.Rec[model.RAGDocument]) []string {
	var out []string
	for _, d := range cands {
		if d.V.DocumentVersionID != "" {
			out = append(out, d.V.DocumentVersionID)
		}
	}
	return out
}

// docLength is a document's length in code points: its text, its
// char_count, or the end of its last page; false when none is known.
func (ix *ragIndex) docLength(d *model.RAGDocument, pages []*dataset.Rec[model.RAGPage]) (int, bool) {
	switch {
	case d.Text != nil:
		return len(ix.docRunes(d)), true
	case d.CharCount != nil:
		return *d.CharCount, true
	}
	length, ok := 0, false
	for _, p := range pages {
		if p.V.CharEnd != nil && *p.V.CharEnd > length {
			length, ok = *p.V.CharEnd, true
		}
	}
	return length, ok
}

package resolve

import (
	"fmt"

	"eval752/app/model"
)

// ChunkTable indexes one run's chunks (seed 003 chunks.jsonl) by id and doc.
type ChunkTable struct {
	chunks     []model.RAGChunk
	byID       map[string]int
	byDoc      map[string][]int
	Duplicates []string
}

// NewChunkTable indexes chunks; a repeated chunk_id keeps its first row.
func NewChunkTable(chunks []model.RAGChunk) *ChunkTable {
	t := &ChunkTable{byID: map[string]int{}, byDoc: map[string][]int{}}
	for _, c := range chunks {
		if _, dup := t.byID[c.ChunkID]; dup {
			t.Duplicates = append(t.Duplicates, c.ChunkID)
			continue
		}
		t.byID[c.ChunkID] = len(t.chunks)
		t.byDoc[c.DocID] = append(t.byDoc[c.DocID], len(t.chunks))
		t.chunks = append(t.chunks, c)
	}
	return t
}

// Len is the number of distinct chunks.
func (t *ChunkTable) Len() int { return len(t.chunks) }

// Lookup returns the chunk with id.
func (t *ChunkTable) Lookup(id string) (model.RAGChunk, bool) {
	i, ok := t.byID[id]
	if !ok {
		return model.RAGChunk{}, false
	}
	return t.chunks[i], true
}

// Anchor is a stable source location of seed 003 §4.3: a gold evidence
// anchor or an anchored judgment. Offsets are [CharStart, CharEnd).
type Anchor struct {
	DocID, VersionID   string
	PageNo             *int
	CharStart, CharEnd *int
}

// EvidenceAnchor converts a gold evidence anchor.
func EvidenceAnchor(a model.EvidenceAnchor) Anchor {
	return Anchor{DocID: a.DocID, VersionID: a.DocumentVersionID, PageNo: a.PageNo, CharStart: a.CharStart, CharEnd: a.CharEnd}
}

// JudgmentAnchor converts an anchored judgment.
func JudgmentAnchor(j model.RAGJudgment) Anchor {
	return Anchor{DocID: j.DocID, VersionID: j.DocumentVersionID, PageNo: j.PageNo, CharStart: j.CharStart, CharEnd: j.CharEnd}
}

// Label writes the anchor for people: "doc_demo_001 [1280,1348)", "doc p.34".
func (a Anchor) Label() string {
	switch {
	case a.CharStart != nil && a.CharEnd != nil:
		return fmt.Sprintf("%s [%d,%d)", a.DocID, *a.CharStart, *a.CharEnd)
	case a.PageNo != nil:
		return fmt.Sprintf("%s p.%d", a.DocID, *a.PageNo)
	}
	return a.DocID
}

// ResolveAnchor resolves a seed-003 anchor to the chunks of the same document
// (and document version, when both name one):
//
//   - with char offsets: chunks whose [char_start, char_end) overlaps the
//     anchor's; a chunk without offsets falls back to a page match;
//   - with only a page: the chunks of that page;
//   - with neither: nothing ("no region (whole document)" — seed 000 §5:
//     gold must be a region, never a whole file).
//
// A span no single chunk holds is "crosses atom boundary" (several chunks
// cover it) or "partial overlap" (part of it is in no chunk): both stay
// resolved to every overlapping chunk and are listed for review (seed 003
// §4.3: 跨边界 … 的歧义映射进入人工复核).
func ResolveAnchor(t *ChunkTable, a Anchor) Resolution {
	r := Resolution{Label: a.Label()}
	idx := t.byDoc[a.DocID]
	if len(idx) == 0 {
		r.addProblem(ProblemUnknownSource)
		return r
	}
	var same []int
	for _, i := range idx {
		c := t.chunks[i]
		if a.VersionID == "" || c.DocumentVersionID == "" || c.DocumentVersionID == a.VersionID {
			same = append(same, i)
		}
	}
	if len(same) == 0 {
		r.addProblem(ProblemVersion)
		return r
	}
	switch {
	case a.CharStart != nil && a.CharEnd != nil:
		if *a.CharEnd <= *a.CharStart {
			r.addProblem(ProblemBadRegion)
			return r
		}
		g := span{float64(*a.CharStart), float64(*a.CharEnd)}
		var parts []span
		for _, i := range same {
			c := t.chunks[i]
			if c.CharStart != nil && c.CharEnd != nil {
				cs := span{float64(*c.CharStart), float64(*c.CharEnd)}
				if g.overlaps(cs) {
					r.Atoms = append(r.Atoms, c.ChunkID)
					parts = append(parts, cs)
				}
			} else if a.PageNo != nil && c.PageNo != nil && *c.PageNo == *a.PageNo {
				// No offsets on the chunk: the page is all we can match.
				r.Atoms = append(r.Atoms, c.ChunkID)
				parts = append(parts, g)
			}
		}
		r.addProblem(classify(g, parts))
	case a.PageNo != nil:
		for _, i := range same {
			c := t.chunks[i]
			if c.PageNo != nil && *c.PageNo == *a.PageNo {
				r.Atoms = append(r.Atoms, c.ChunkID)
			}
		}
		if len(r.Atoms) == 0 {
			r.addProblem(ProblemNoAtom)
		}
	default:
		r.addProblem(ProblemNoRegion)
	}
	return r
}

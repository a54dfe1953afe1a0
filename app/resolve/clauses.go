package resolve

import (
	"strconv"
	"strings"

	"eval752/app/answer"
	"eval752/app/model"
)

// ClauseIndex indexes seed 002's clause index for v2 retrieval results.
//
// A retrieved id names a clause in one of two forms:
//
//	"<doc>#<clause>"      every index entry with that (doc, clause) key
//	"<doc>#<clause>#<n>"  the n-th (1-based, index order) entry with that key
//
// The second form is unambiguous; the first is ambiguous when the seed's
// compilation repeats a clause number with different bodies (seed 002: the
// guide has 27 such numbers), which is why relevance is decided by the
// answer text, not the clause number alone.
type ClauseIndex struct {
	entries []model.Clause
	byID    map[string][]int
	byKey   map[string][]int
}

// ClauseKey is the "<doc>#<clause>" key of a provenance or clause.
func ClauseKey(doc, clause string) string { return doc + "#" + clause }

// NewClauseIndex indexes clauses in order.
func NewClauseIndex(clauses []model.Clause) *ClauseIndex {
	x := &ClauseIndex{entries: clauses, byID: map[string][]int{}, byKey: map[string][]int{}}
	for i, c := range clauses {
		k := ClauseKey(c.Doc, c.Clause)
		x.byKey[k] = append(x.byKey[k], i)
	}
	for k, idx := range x.byKey {
		x.byID[k] = idx
		for n, i := range idx {
			id := k + "#" + strconv.Itoa(n+1)
			if _, taken := x.byID[id]; !taken {
				x.byID[id] = []int{i}
			}
		}
	}
	return x
}

// EntryID is the unambiguous id of entry i ("<doc>#<clause>#<n>").
func (x *ClauseIndex) EntryID(i int) string {
	c := x.entries[i]
	k := ClauseKey(c.Doc, c.Clause)
	for n, j := range x.byKey[k] {
		if j == i {
			return k + "#" + strconv.Itoa(n+1)
		}
	}
	return k
}

// Lookup returns the index entries an id names (nil when none).
func (x *ClauseIndex) Lookup(id string) []model.Clause {
	var out []model.Clause
	for _, i := range x.byID[id] {
		out = append(out, x.entries[i])
	}
	return out
}

// AnswerSentences splits a v2 answer into its verbatim sentences (seed 002:
// sentences are joined with 「；」), normalised with answer.Normalize.
func AnswerSentences(ans string) []string {
	var out []string
	for _, s := range strings.Split(ans, "；") {
		if n := answer.Normalize(s); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// HoldsAnswer reports whether clause text holds at least one answer sentence
// verbatim (after normalisation).
func HoldsAnswer(text string, sentences []string) bool {
	t := answer.Normalize(text)
	for _, s := range sentences {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// ResolveProvenance resolves a v2 provenance to the index entries with its
// (doc, clause) key that hold at least one answer sentence. When no entry
// holds the answer (or the answer is empty), every entry with the key is
// returned with the problem "answer text not in clause".
func (x *ClauseIndex) ResolveProvenance(p model.V2Provenance, sentences []string) Resolution {
	k := ClauseKey(p.Doc, p.Clause)
	r := Resolution{Label: p.Doc + " " + p.Clause}
	idx := x.byKey[k]
	if len(idx) == 0 {
		r.addProblem(ProblemNoAtom)
		return r
	}
	for _, i := range idx {
		if HoldsAnswer(x.entries[i].Text, sentences) {
			r.Atoms = append(r.Atoms, x.EntryID(i))
		}
	}
	if len(r.Atoms) == 0 {
		for _, i := range idx {
			r.Atoms = append(r.Atoms, x.EntryID(i))
		}
		r.addProblem(ProblemAnswerText)
	}
	return r
}

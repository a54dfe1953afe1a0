package metrics

import (
	"slices"

	"eval752/app/trecio"
)

// Candidate is one retrieved unit (atom, chunk, clause) of a ranked list,
// already graded against the item's run-specific judgments.
type Candidate struct {
	ID string
	// Score is the retriever's score; HasScore is false when the run gave
	// none (then the list order is the rank).
	Score    float64
	HasScore bool
	// Judged is false when nothing says whether this unit is relevant (its id
	// is not in the atom table, or no judgment anchor resolves to it). An
	// unjudged candidate gains nothing but is counted (seed 003 §7: unjudged
	// must not silently count as 0).
	Judged bool
	// Grade is the relevance grade: 0–3 (seed 003 qrels grades) or 0/1
	// (b-2 and v2 binary relevance). Meaningless when !Judged.
	Grade int
	// Gold lists the indices of the item's gold entries / evidence groups
	// this candidate satisfies (resolves into).
	Gold []int
	// Future: its observed_at is later than the item's as_of (seed 000 §2.4).
	// OtherHolder: it belongs to another scope.holder (seed 000 §2.5).
	Future, OtherHolder bool
	// Strong marks evidence strong enough to count against an unanswerable
	// item (false_recall): score ≥ the strong-evidence threshold, or any
	// candidate when the run gives no scores.
	Strong bool
}

// Query is everything the retrieval metrics need for one item of one run.
type Query struct {
	// Ranked is the canonical ranking (see Canonicalize), best first.
	Ranked []Candidate
	// NumGold is the number of gold entries / evidence groups (recall@k's
	// denominator). Required lists the indices of required groups
	// (CompleteHit, EvidenceGroupRecall); nil means every group is required.
	NumGold  int
	Required []int
	// RelLevel: a candidate is relevant iff Judged && Grade ≥ RelLevel
	// (Hit, MRR, P, MAP, R-precision, bpref). 1 for binary relevance, 2 for
	// seed 003's 0–3 grades ("等级 ≥ 2 的证据").
	RelLevel int
	// Rel holds the grade (≥ 1) of every judged unit of the run-specific
	// qrels, retrieved or not: the ideal list of nDCG and the source of R.
	// NonRel counts the judged units of grade 0 (bpref's N, with the grades
	// in Rel below RelLevel).
	Rel    []int
	NonRel int
	// Abstained: the run signalled abstention (refused=true) for this item.
	Abstained bool
}

// Canonicalize orders cands with trecio.CompareRanked, trec_eval's order (form_res_rels.c): score
// descending, ties broken by id descending byte-wise. When any candidate has
// no score, the list order is the rank and cands is returned unchanged. The
// sort is stable, and NaN scores (which cannot be ordered) sort last.
func Canonicalize(cands []Candidate) []Candidate {
	for _, c := range cands {
		if !c.HasScore {
			return cands
		}
	}
	out := append([]Candidate(nil), cands...)
	slices.SortStableFunc(out, func(a, b Candidate) int { return trecio.CompareRanked(a.Score, a.ID, b.Score, b.ID) })
	return out
}

// relevant reports whether c counts as relevant at level.
func relevant(c Candidate, level int) bool {
	return c.Judged && c.Grade >= level && c.Grade > 0
}

// top returns the first k candidates (all when k ≤ 0 or k > len).
func top(q *Query, k int) []Candidate {
	if k <= 0 || k > len(q.Ranked) {
		return q.Ranked
	}
	return q.Ranked[:k]
}

// numRel is R: judged units (retrieved or not) with grade ≥ RelLevel.
func (q *Query) numRel() int {
	n := 0
	for _, g := range q.Rel {
		if g >= q.level() {
			n++
		}
	}
	return n
}

// numNonRel is bpref's N: judged units with 0 ≤ grade < RelLevel.
func (q *Query) numNonRel() int {
	n := q.NonRel
	for _, g := range q.Rel {
		if g < q.level() {
			n++
		}
	}
	return n
}

func (q *Query) level() int {
	if q.RelLevel < 1 {
		return 1
	}
	return q.RelLevel
}

// required returns the indices of required gold groups.
func (q *Query) required() []int {
	if q.Required != nil {
		return q.Required
	}
	r := make([]int, q.NumGold)
	for i := range r {
		r[i] = i
	}
	return r
}

// relevantInTop counts the relevant candidates within the top k (the
// numerator of P@k and R-precision).
func relevantInTop(q *Query, k int) int {
	n := 0
	for _, c := range top(q, k) {
		if relevant(c, q.level()) {
			n++
		}
	}
	return n
}

// noneInTop is the indicator [∄ i ≤ k : p(candidate_i)]: 1 when no candidate
// within the top k satisfies p.
func noneInTop(q *Query, k int, p func(Candidate) bool) float64 {
	for _, c := range top(q, k) {
		if p(c) {
			return 0
		}
	}
	return 1
}

// requiredCovered returns how many of the item's required evidence groups
// have a unit within the top k, and how many groups are required.
func requiredCovered(q *Query, k int) (n, required int) {
	req := q.required()
	cov := covered(q, k)
	for _, g := range req {
		if cov[g] {
			n++
		}
	}
	return n, len(req)
}

// covered returns the set of gold indices satisfied within the top k.
func covered(q *Query, k int) map[int]bool {
	m := map[int]bool{}
	for _, c := range top(q, k) {
		for _, g := range c.Gold {
			m[g] = true
		}
	}
	return m
}

// Unjudged counts the unjudged candidates within the top k.
func Unjudged(q *Query, k int) int {
	n := 0
	for _, c := range top(q, k) {
		if !c.Judged {
			n++
		}
	}
	return n
}

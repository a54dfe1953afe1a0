package itemscore

import (
	"fmt"
	"strconv"
	"time"

	"eval752/app/metrics"
	"eval752/app/model"
	"eval752/app/resolve"
)

// goldView is one unit's run-specific qrels: how each retrievable id is
// graded, which gold entries it satisfies, and the resolution rows.
type goldView struct {
	rows []resolve.Resolution // gold entries (then judgments), for the table
	// judged is parallel to rows: -1 for a gold entry, else the grade of
	// the anchored judgment the row resolves.
	judged []int

	numGold  int
	required []int // nil = all
	multiHop bool
	relLevel int

	rel    []int // grades ≥ 1 of every judged unit (+ phantoms)
	nonRel int

	// grade returns (judged, grade, gold indices) of a retrieved id.
	grade func(id string) (bool, int, []int)
	// unknown reports an id that names nothing in the table (b-2, v2: judged
	// non-relevant, the item is flagged "unknown-id"); nil = never.
	unknown func(id string) bool

	// noGroups: the gold-group metrics (recall@k, complete_hit@k,
	// evidence_group_recall@k) are not applicable — a seed-003 question
	// graded only by chunk qrels, or whose groups could not be resolved
	// for want of a chunk table (groupsUnresolved).
	noGroups, groupsUnresolved bool

	// futureGold holds the atoms of gold regions observed after the
	// item's as_of (b-2): they are no gold for it (seed 000 §2 constraint
	// 4) and not in its ideal list or R; the item is flagged
	// "future-gold".
	futureGold map[string]bool
	// holderGold holds the atoms of gold regions that belong to another
	// scope.holder than the item's (b-2): a cross-holder retrieval is wrong
	// (seed 000 §2 constraint 5, 跨 holder 泄漏即判错), so, like future
	// evidence, they are no gold for it and not in its ideal list or R; the
	// item is flagged "other-holder-gold".
	holderGold map[string]bool

	// noTable: a b-2 unit scored without any atom table — its gold regions
	// cannot be resolved and atoms carry no observed_at / holder, so no
	// ranking or temporal / holder figure is computed (not a silent 0)
	noTable bool

	ambiguous    bool // a gold entry resolved with a problem
	unresolvedJ  bool // a graded judgment did not resolve
	hasRetrieval bool // the unit has gold to score rankings against
}

// addGold adds a resolved gold entry's row; a problem marks the view
// ambiguous, and an entry that resolved to nothing stays in the ideal list
// as a phantom of grade phantom (it can never be retrieved).
func (g *goldView) addGold(r resolve.Resolution, phantom int) resolve.Resolution {
	g.rows = append(g.rows, r)
	g.judged = append(g.judged, -1)
	if r.Problem != "" {
		g.ambiguous = true
	}
	if len(r.Atoms) == 0 {
		g.rel = append(g.rel, phantom)
	}
	return r
}

// b2Gold resolves a b-2 unit's gold regions on an atom table.
func b2Gold(b *model.B2, t *resolve.AtomTable) *goldView {
	g := &goldView{numGold: len(b.Gold), relLevel: 1, hasRetrieval: !b.Unanswerable && len(b.Gold) > 0}
	atomGold := map[string][]int{}
	var goldAtoms []string
	if t.Len() == 0 {
		g.noTable, g.hasRetrieval = true, false
		g.grade = func(string) (bool, int, []int) { return false, 0, nil }
		return g
	}
	asOf, hasAsOf := parseTime(b.AsOf)
	future := func(id string) bool {
		a, ok := t.Lookup(id)
		if !ok || !hasAsOf {
			return false
		}
		obs, ok := parseTime(a.ObservedAt)
		return ok && obs.After(asOf)
	}
	otherHolder := func(id string) bool {
		a, ok := t.Lookup(id)
		return ok && a.Holder != "" && b.Scope.Holder != "" && a.Holder != b.Scope.Holder
	}
	for i, e := range b.Gold {
		r := g.addGold(resolve.ResolveRegion(t, e, b.Modality), 1)
		admitted := 0
		for _, a := range r.Atoms {
			if future(a) {
				// observed after as_of: 不得作为 gold 命中 (seed 000 §2
				// constraint 4) — not gold for this item, not in its
				// ideal list
				if g.futureGold == nil {
					g.futureGold = map[string]bool{}
				}
				g.futureGold[a] = true
				continue
			}
			if otherHolder(a) {
				// another holder's atom: 跨 holder 泄漏即判错 (seed 000 §2
				// constraint 5) — retrieving it is wrong, so it is no
				// gold for this item either, and not in its ideal list
				if g.holderGold == nil {
					g.holderGold = map[string]bool{}
				}
				g.holderGold[a] = true
				continue
			}
			admitted++
			if _, seen := atomGold[a]; !seen {
				goldAtoms = append(goldAtoms, a)
				g.rel = append(g.rel, 1)
			}
			atomGold[a] = appendOnce(atomGold[a], i)
		}
		if len(r.Atoms) > 0 && admitted == 0 {
			// every atom of the region is later than as_of or another
			// holder's: like a region that resolved to no atom, it stays
			// in the ideal list as a phantom no run can retrieve (the item
			// is flagged)
			g.rel = append(g.rel, 1)
		}
	}
	// b-2 gold is the complete binary judgment (seed 000 §2: gold regions
	// from third-party annotation; every other atom is not gold): every
	// other atom of the table is judged non-relevant, and so is an id that
	// is not in the run's atom table at all (it cannot resolve to a gold
	// region; the item is flagged "unknown-id"). Nothing is unjudged.
	g.nonRel = t.Len() - len(goldAtoms)
	g.unknown = func(id string) bool { _, ok := t.Lookup(id); return !ok }
	g.grade = func(id string) (bool, int, []int) {
		gs := atomGold[id]
		if len(gs) > 0 {
			return true, 1, gs
		}
		return true, 0, nil
	}
	return g
}

// ragGold resolves a seed-003 question's evidence groups and anchored
// judgments on the chunk table. Gold evidence chunks get grade 3 (seed 003
// §7: "属于必要 Gold 证据组"); a chunk reached by several judgments takes the
// highest grade; a chunk no anchor reaches is unjudged.
//
// qrels are the run's chunk-level judgments of the question (seed 003 §10:
// the run's qrels.tsv, anchored judgments already resolved to its chunks);
// hasQrels says that chunk qrels apply to the run at all. A chunk graded by
// both the qrels and an anchor takes the higher grade; a negative qrels
// grade is no judgment (trec_eval). Relevance stays grade ≥ 2 and the nDCG
// ideal is every judged grade ≥ 1, whichever source graded it.
//
// With qrels but no chunk table (no chunks.jsonl) the anchors cannot be
// resolved: the qrels alone grade the ranking, the groups' metrics are not
// applicable (noGroups) rather than 0 with "ambiguous gold" on every item,
// and no unresolved anchor becomes a phantom of the ideal list — the qrels
// are the resolution.
func ragGold(q *model.RAGQuestion, js []model.RAGJudgment, t *resolve.ChunkTable, qrels map[string]int, hasQrels bool) *goldView {
	g := &goldView{relLevel: 2}
	unresolved := hasQrels && t.Len() == 0
	groupIdx := map[string]int{}
	var required []int
	grade := map[string]int{}
	chunkGold := map[string][]int{}
	for _, e := range q.GoldEvidenceGroups {
		gi := -1
		if e.GroupID != "" {
			if i, ok := groupIdx[e.GroupID]; ok {
				gi = i
			}
		}
		if gi < 0 {
			gi = g.numGold
			g.numGold++
			if e.GroupID != "" {
				groupIdx[e.GroupID] = gi
			}
			if e.Required == nil || *e.Required {
				required = append(required, gi)
			}
		}
		if unresolved {
			r := resolve.ResolveAnchor(t, resolve.EvidenceAnchor(e))
			g.rows = append(g.rows, resolve.Resolution{Label: r.Label + notResolved})
			g.judged = append(g.judged, -1)
			continue
		}
		r := g.addGold(resolve.ResolveAnchor(t, resolve.EvidenceAnchor(e)), 3)
		for _, c := range r.Atoms {
			grade[c] = 3
			chunkGold[c] = appendOnce(chunkGold[c], gi)
		}
	}
	for _, j := range js {
		r := resolve.ResolveAnchor(t, resolve.JudgmentAnchor(j))
		g.judged = append(g.judged, j.Grade)
		if j.Grade < 0 || j.Grade > 3 {
			// not a 0–3 grade (validation reports it): no judgment, so
			// its chunks stay unjudged rather than gain 5
			g.rows = append(g.rows, resolve.Resolution{Label: r.Label + badGrade})
			continue
		}
		if unresolved {
			g.rows = append(g.rows, resolve.Resolution{Label: r.Label + notResolved})
			continue
		}
		g.rows = append(g.rows, r)
		if len(r.Atoms) == 0 {
			g.unresolvedJ = true
			if j.Grade >= 1 {
				g.rel = append(g.rel, j.Grade)
			}
		}
		for _, c := range r.Atoms {
			if old, ok := grade[c]; !ok || j.Grade > old {
				grade[c] = j.Grade
			}
		}
	}
	for c, gr := range qrels {
		if gr < 0 || gr > 3 {
			continue // no judgment (trec_eval: negative); above 3 is no seed-003 grade
		}
		if old, ok := grade[c]; !ok || gr > old {
			grade[c] = gr
		}
	}
	for _, gr := range grade {
		if gr >= 1 {
			g.rel = append(g.rel, gr)
		} else {
			g.nonRel++
		}
	}
	g.required = required
	if required == nil {
		g.required = []int{}
	}
	g.multiHop = q.Hops == "multi" || (q.Hops == "" && len(required) >= 2)
	g.hasRetrieval = q.Answerable && (g.numGold > 0 || len(qrels) > 0)
	// Gold coverage, complete_hit and evidence_group_recall need groups
	// resolved to chunks: not applicable without groups (a question judged
	// only by qrels) or without a chunk table to resolve them on.
	g.noGroups = g.numGold == 0 || unresolved
	g.groupsUnresolved = unresolved && g.numGold > 0
	g.grade = func(id string) (bool, int, []int) {
		gr, ok := grade[id]
		if !ok {
			return false, 0, nil
		}
		return true, gr, chunkGold[id]
	}
	if t.Len() > 0 {
		// a chunk id chunks.jsonl does not have (and no qrels line
		// grades): unjudged, and the item is flagged "unknown-id"
		g.unknown = func(id string) bool {
			_, graded := grade[id]
			_, ok := t.Lookup(id)
			return !ok && !graded
		}
	}
	return g
}

// badGrade marks the resolution row of a judgment whose grade is outside
// seed 003's 0–3 scale: it is left out (rag.judgment / rag.qrels-grade
// report it).
const badGrade = " — left out: grade outside 0–3"

// notResolved marks a resolution row that was not attempted: chunk qrels
// apply to the run but there is no chunks.jsonl to resolve anchors on.
const notResolved = " — not resolved: no chunks.jsonl (the run's qrels grade its chunks)"

// v2Gold resolves a v2 question's provenance on the clause index: a clause
// is relevant to a provenance when it has the provenance's (doc, clause) key
// AND holds an answer sentence (seed 002: compare by answer text, not by
// clause number alone).
func v2Gold(q *model.V2Question, x *resolve.ClauseIndex, nEntries int) *goldView {
	g := &goldView{numGold: len(q.Provenance), relLevel: 1}
	ans := ""
	if q.Answer != nil {
		ans = *q.Answer
	}
	sents := resolve.AnswerSentences(ans)
	goldIDs := map[string][]int{}
	var nGold int
	for i, p := range q.Provenance {
		r := g.addGold(x.ResolveProvenance(p, sents), 1)
		for _, id := range r.Atoms {
			if _, seen := goldIDs[id]; !seen {
				nGold++
				g.rel = append(g.rel, 1)
			}
			goldIDs[id] = appendOnce(goldIDs[id], i)
		}
	}
	g.nonRel = max(0, nEntries-nGold)
	g.multiHop = q.Category == model.CategoryCross || q.Joint
	g.hasRetrieval = q.Category != model.CategoryRefuse && g.numGold > 0
	// v2 gold is the complete binary judgment too (seed 002: every question
	// lists its provenance clauses): an index entry is relevant iff it is a
	// resolved gold entry; a bare "<doc>#<clause>" id names every entry with
	// that key and is relevant iff one of them is (the retrieved text then
	// holds the answer sentence); anything else — another clause, an id the
	// index does not know (flagged "unknown-id") — is judged non-relevant.
	g.unknown = func(id string) bool { return len(x.Lookup(id)) == 0 }
	g.grade = func(id string) (bool, int, []int) {
		if ps, ok := goldIDs[id]; ok {
			return true, 1, ps
		}
		var provs []int
		// A bare key names its entries "<key>#1" … "<key>#n" (index order);
		// for an entry id the names below do not exist.
		for i := 1; i <= len(x.Lookup(id)); i++ {
			for _, p := range goldIDs[id+"#"+strconv.Itoa(i)] {
				provs = appendOnce(provs, p)
			}
		}
		if len(provs) > 0 {
			return true, 1, provs
		}
		return true, 0, nil
	}
	return g
}

func appendOnce(xs []int, v int) []int {
	for _, x := range xs {
		if x == v {
			return xs
		}
	}
	return append(xs, v)
}

// query builds the metric input for one ranking against g.
func (g *goldView) query(cands []metrics.Candidate) *metrics.Query {
	q := &metrics.Query{Ranked: cands, NumGold: g.numGold, Required: g.required, RelLevel: g.relLevel,
		Rel: append([]int(nil), g.rel...), NonRel: g.nonRel}
	// Keep R and N consistent with what was retrieved (an id graded here
	// but absent from the pool can only come from a bare clause id).
	relRet, nonRet := 0, 0
	for _, c := range cands {
		if c.Judged && c.Grade >= max(1, g.relLevel) {
			relRet++
		} else if c.Judged && c.Grade <= 0 {
			nonRet++
		}
	}
	for n := countAtLeast(q.Rel, max(1, g.relLevel)); n < relRet; n++ {
		q.Rel = append(q.Rel, max(1, g.relLevel))
	}
	q.NonRel = max(q.NonRel, nonRet)
	return q
}

func countAtLeast(xs []int, l int) int {
	n := 0
	for _, x := range xs {
		if x >= l {
			n++
		}
	}
	return n
}

// parseTime reads an RFC 3339 time (seed 000's as_of / observed_at).
func parseTime(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	if t, ok := model.ParseInstant(s); ok {
		return t, true
	}
	// validation reports these; scoring reads them as UTC
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// trecGold is a TREC qrels query as run-specific qrels, with trec_eval's
// conventions (-l 1): a doc with grade ≥ 0 is judged; a doc absent from the
// qrels or with a negative grade is unjudged; every doc of grade ≥ 1 is its
// own gold entry, so gold coverage equals trec_eval's recall_k.
func trecGold(tu *trecUnit) *goldView {
	g := &goldView{relLevel: 1}
	gold := map[string]int{}
	for _, d := range tu.docs {
		gr := tu.grades[d]
		switch {
		case gr >= 1:
			g.rel = append(g.rel, gr)
			gold[d] = g.numGold
			g.numGold++
			g.rows = append(g.rows, resolve.Resolution{Label: fmt.Sprintf("%s (grade %d)", d, gr), Atoms: []string{d}})
			g.judged = append(g.judged, -1)
		case gr == 0:
			g.nonRel++
		}
	}
	g.hasRetrieval = true
	g.grade = func(id string) (bool, int, []int) {
		gr, ok := tu.grades[id]
		if !ok || gr < 0 {
			return false, 0, nil
		}
		if gi, ok := gold[id]; ok {
			return true, gr, []int{gi}
		}
		return true, gr, nil
	}
	return g
}

package itemscore

import (
	"errors"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"eval752/app/answer"
	"eval752/app/dataset"
	"eval752/app/metrics"
	"eval752/app/model"
	"eval752/app/report"
	"eval752/app/resolve"
	"eval752/app/stats"
)

// Score computes every applicable per-item metric of every run on every
// annotated unit of ds within the run's scope (RunScores.Sets: the sets it
// has at least one result for; units of other sets are OutOfScope).
//
// Units are the eval752 items, b-2 annotations, v2 questions and seed-003
// questions, seed-003 questions and TREC qrels queries, in that order. Runs
// are the run names of results.jsonl, TREC run files and seed-003
// predictions, in first-seen order. A unit of the run's scope without a
// result of the run is Missing and takes the worst value of every metric
// that applies to it (seed 000 §4: denominators are annotated items, never
// hits).
func Score(ds *dataset.Dataset, opt Options) (*Set, error) {
	if ds == nil {
		return nil, errors.New("itemscore: nil dataset")
	}
	if opt.RefusalPhrases == nil {
		for _, b := range ds.Bundles {
			if b.RunConfig != nil && b.RunConfig.Typed && len(b.RunConfig.V.RefusalPhrases) > 0 {
				opt.RefusalPhrases = b.RunConfig.V.RefusalPhrases
				break
			}
		}
	}
	opt = opt.normalize()
	units, byID, cq := buildUnits(ds)
	sc := newScorer(ds, opt, units)
	sc.qrels = cq
	runs := collectRuns(ds, byID)
	if opt.DropRecords {
		ds.Results, ds.Runs, ds.Preds = nil, nil, nil
	}
	if opt.Runs != nil {
		runs = slices.DeleteFunc(runs, func(r *runOut) bool { return !slices.Contains(opt.Runs, r.name) })
	}
	sc.assignQrels(runs)

	set := &Set{Config: opt.config(), Units: []Unit{}, Runs: []RunScores{}, Resolution: []Resolved{}, Ambiguities: []Resolved{}, CIs: &stats.Memo{}}
	// Resolve every gold view first (serially: the caches are plain maps),
	// then score items in parallel: scoring only reads shared state and
	// writes its own slot, so the result does not depend on scheduling.
	for _, r := range runs {
		for _, u := range units {
			sc.viewRun(u, r)
			if u.b2 != nil {
				sc.atomTable(r.atoms)
			}
		}
	}
	reviewed := reviewedErrors(ds, runs, byID)
	assignGrades(ds, runs)
	for _, r := range runs {
		r.computeSetCaps(units)
		_, cfg := runConfig(ds, r)
		r.contextTop = contextTopOf(cfg)
	}
	for _, r := range runs {
		rs := RunScores{Run: r.name, Unknown: r.unknown, Items: make([]ItemScore, len(units)), Sets: runScope(units, r), Qrels: sc.qrelsPaths(r.qrelsKey), Reranked: r.reranked}
		rs.QrelsDigest = sc.qrelsDigests(r.qrelsKey)
		rs.ConfigPath, rs.Config = runConfig(ds, r)
		rs.Dirs = slices.Clone(r.dirs)
		parallel(len(units), func(i int) {
			if !slices.Contains(rs.Sets, units[i].Set) || units[i].peer != nil && r.fromPeer && r.byUnit.at(i) == nil {
				rs.Items[i] = ItemScore{OutOfScope: true, Values: report.Values{}}
				return
			}
			rs.Items[i] = sc.scoreItem(units[i], i, r)
			if i < len(r.byUnit) {
				r.byUnit[i] = nil // scored: what the item keeps of it is in rs.Items[i]
			}
		})
		for ui, recs := range reviewed[r.name] {
			it := &rs.Items[ui]
			if it.OutOfScope {
				continue
			}
			var codes []string
			for _, e := range recs {
				codes = append(codes, e.Code)
			}
			it.Reviewed = codes
			it.trace().ReviewedRecords = recs
		}
		set.Runs = append(set.Runs, rs)
	}
	if opt.DropRecords {
		// every run is scored: what a unit keeps of its eval752 item is
		// its own (Unit), so the records go before set.Units is made
		for _, u := range units {
			u.item = nil
		}
		ds.Items = nil
	}
	// Gold for the item browser: the first run's resolution (or the shared tables').
	first := ""
	if len(runs) > 0 {
		first = runs[0].atoms
	}
	sc.finishSet(set, runs, first)
	set.Notes = sc.notes(set, runs)
	set.Headlines = headlines(ds)
	set.Agreement = agreements(ds, runs, stats.CohenKappa)
	if len(sc.qrels) > 0 {
		set.Config = append(set.Config, sc.qrelsConfig(runs))
	}
	return set, nil
}

// runScope lists, in unit order, the sets (Unit.Set) for which run r has a
// result for at least one unit. A run is scored on every unit of these sets
// (a unit without a result is Missing, worst value: seed 000 §4) and on no
// unit of any other set: a run of seed-003 predictions says nothing about
// the b-2 set, and counting every b-2 unit as a missing 0 would be
// misleading. Duplicate results and result ids matching no unit do not
// widen the scope.
func runScope(units []*unitSpec, r *runOut) []string {
	has := map[string]bool{}
	for ui, o := range r.byUnit {
		if o == nil {
			continue
		}
		has[units[ui].Set] = true
	}
	sets := []string{}
	for _, u := range units {
		if has[u.Set] && !slices.Contains(sets, u.Set) {
			sets = append(sets, u.Set)
		}
	}
	return sets
}

// parallel runs f(0..n-1) on GOMAXPROCS workers in contiguous blocks.
func parallel(n int, f func(int)) {
	w := min(runtime.GOMAXPROCS(0), max(1, n/64))
	if w <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	per := (n + w - 1) / w
	for lo := 0; lo < n; lo += per {
		hi := min(n, lo+per)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// viewKey names a unit's gold view: b-2 views depend on the run's atom
// table, seed-003 views on the chunk qrels files that apply to the run.
type viewKey struct {
	unit  int
	table string
	qrels string
}

type scorer struct {
	ds       *dataset.Dataset
	opt      Options
	refusals *answer.Refusals // opt.RefusalPhrases, normalised once
	// retrieval are retrievalMetrics(opt.Cutoffs, multiHop) for multiHop
	// false and true, bound once (shared: never modified)
	retrieval  [2][]boundMetric
	units      []*unitSpec
	atomTables map[string]*resolve.AtomTable
	chunks     *resolve.ChunkTable
	clauses    *resolve.ClauseIndex
	nClauses   int
	judgments  map[string][]model.RAGJudgment
	qrels      []chunkQrels // seed-003 chunk-level qrels (buildUnits)
	views      map[viewKey]*goldView
	viewOrder  []viewKey
}

// newScorer numbers units (unitSpec.idx) and indexes ds's shared tables:
// chunks, clauses and RAG judgments by qid.
func newScorer(ds *dataset.Dataset, opt Options, units []*unitSpec) *scorer {
	for i, u := range units {
		u.idx = i
	}
	sc := &scorer{ds: ds, opt: opt, refusals: answer.NewRefusals(opt.RefusalPhrases), units: units, atomTables: map[string]*resolve.AtomTable{}, views: map[viewKey]*goldView{}}
	sc.retrieval = [2][]boundMetric{retrievalMetrics(opt.Cutoffs, false), retrievalMetrics(opt.Cutoffs, true)}
	sc.chunks = resolve.NewChunkTable(typed(ds.Chunks))
	clauses := typed(ds.Clauses)
	sc.clauses = resolve.NewClauseIndex(clauses)
	sc.nClauses = len(clauses)
	sc.judgments = map[string][]model.RAGJudgment{}
	for _, j := range typed(ds.Judgments) {
		sc.judgments[j.QID] = append(sc.judgments[j.QID], j)
	}
	return sc
}

// finishSet adds the units to set with their gold for the item browser (as
// resolved on the atoms table), then the resolution tables and the list of
// metrics present.
func (sc *scorer) finishSet(set *Set, runs []*runOut, atoms string) {
	qk := sc.qrelsKeyFor(nil)
	if len(runs) > 0 {
		qk = runs[0].qrelsKey
	}
	set.Units = slices.Grow(set.Units, len(sc.units))
	for _, u := range sc.units {
		g := sc.viewQ(u, atoms, qk)
		u.Gold = nil
		if g != nil {
			for i, r := range g.rows {
				d := report.GoldDetail{Label: r.Label, Atoms: nonNil(r.Atoms), Note: r.Problem}
				if i < len(g.judged) && g.judged[i] >= 0 {
					d.Judgment = &g.judged[i]
				}
				u.Gold = append(u.Gold, d)
			}
		}
		set.Units = append(set.Units, u.Unit)
	}
	set.Resolution, set.Ambiguities = sc.resolutionTable(runs)
	set.Metrics = presentMetrics(set, sc.opt)
}

// typedRecs yields the records that decoded into their type (the others
// are the schema check's business), in order.
func typedRecs[T any](recs []dataset.Rec[T]) iter.Seq[*dataset.Rec[T]] {
	return func(yield func(*dataset.Rec[T]) bool) {
		for i := range recs {
			if recs[i].Typed && !yield(&recs[i]) {
				return
			}
		}
	}
}

func typed[T any](recs []dataset.Rec[T]) []T {
	var out []T
	for r := range typedRecs(recs) {
		out = append(out, r.V)
	}
	return out
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

func (sc *scorer) atomTable(p string) *resolve.AtomTable {
	t, ok := sc.atomTables[p]
	if !ok {
		t = resolve.NewAtomTable(atomsFor(sc.ds, p))
		sc.atomTables[p] = t
	}
	return t
}

// view returns the unit's gold view on the table a run uses (b-2: the run's
// atom table; seed 003 and v2: the shared chunk table / clause index),
// without chunk qrels.
func (sc *scorer) view(u *unitSpec, atoms string) *goldView {
	return sc.viewQ(u, atoms, "")
}

// viewRun is the unit's gold view for run r (its atom table and the chunk
// qrels that apply to it).
func (sc *scorer) viewRun(u *unitSpec, r *runOut) *goldView {
	return sc.viewQ(u, r.atoms, r.qrelsKey)
}

// viewQ is view with the chunk qrels files named by qk (seed-003 units only).
func (sc *scorer) viewQ(u *unitSpec, atoms, qk string) *goldView {
	if u.b2 == nil && u.rag == nil && u.v2 == nil && u.trec == nil {
		return nil // no gold to resolve (eval752 items, peer samples): nothing cached
	}
	key := viewKey{unit: u.idx}
	if u.b2 != nil {
		key.table = atoms
	}
	if u.rag != nil {
		key.qrels = qk
	}
	if g, ok := sc.views[key]; ok {
		return g
	}
	var g *goldView
	switch {
	case u.b2 != nil:
		g = b2Gold(u.b2, sc.atomTable(atoms))
	case u.rag != nil:
		qr, has := sc.qrelsFor(key.qrels, u.rag.QID)
		g = ragGold(u.rag, sc.judgments[u.rag.QID], sc.chunks, qr, has)
	case u.v2 != nil:
		g = v2Gold(u.v2, sc.clauses, sc.nClauses)
	case u.trec != nil:
		g = trecGold(u.trec)
	}
	sc.views[key] = g
	sc.viewOrder = append(sc.viewOrder, key)
	return g
}

// scoreItem scores unit u (index ui) for run r.
func (sc *scorer) scoreItem(u *unitSpec, ui int, r *runOut) ItemScore {
	o := r.byUnit.at(ui)
	var it ItemScore
	if o == nil {
		it.Missing = true
		it.Flags = append(it.Flags, "missing")
	}
	c := r.setCaps[u.Set]
	if c.retrieves {
		sc.scoreRetrieval(u, o, r, &it)
	}
	// a TREC query has no answer and no answerability: only its ranking
	// is scored (refusal F1 on it would count a non-refusal as right)
	if u.trec == nil && (c.answers || (c.refuses && u.item == nil && u.peer == nil)) {
		resp, correct := scoreAnswer(u, o, r, sc.refusals, &it.Values)
		it.Detail.Response = resp
		it.Detail.Correct = correct
	}
	if o != nil {
		it.LatencyMS, it.InputTokens, it.OutputTokens, it.CostUSD = o.latency, o.inTok, o.outTk, o.cost
		it.Stages, it.Usage = o.stages, o.usage
		if o.x().citations != nil {
			it.trace().Citations = o.x().citations
		}
		if o.retrieved != nil {
			ids := make([]string, 0, len(o.retrieved))
			for _, rt := range o.retrieved {
				ids = append(ids, rt.id)
			}
			if o.x().reranked {
				it.trace().FirstStage, it.trace().Reranked = o.x().first, ids
			} else {
				it.trace().FirstStage = ids
			}
		}
		if o.errText != "" {
			it.Flags = append(it.Flags, "error")
		}
		if o.x().rerankEmpty {
			// scored on the empty final ranking (0), though the first
			// stage found candidates: a rerank failure or truncation
			// (seed 003 §9 RERANK_TRUNCATION), not a retrieval miss
			it.Flags = append(it.Flags, "rerank-empty")
		}
	}
	if r.dupUnits[ui] {
		it.Flags = append(it.Flags, "duplicate-result")
	}
	sc.scoreGeneration(u, o, r, &it)
	it.Errors = sc.attribute(u, o, r, &it)
	if it.Missing {
		worst(&it.Values)
	}
	it.Values = it.Values.Compact()
	return it
}

// worst sets every value to its metric's worst: 0 when higher is better, 1
// otherwise (false_recall), so a missing result never helps a run. Refusal
// indicators are left as computed ("did not refuse"); judged@k, which
// describes the returned candidates, does not apply.
func worst(v *report.Values) {
	out := (*v)[:0]
	for _, e := range *v {
		name := e.Name
		switch {
		case strings.HasPrefix(name, "refusal."):
			// indicators: a missing result simply did not refuse
		case strings.HasPrefix(name, "judged@"):
			// a diagnostic of the candidates a run returned, not a
			// score: a missing result returned none to judge
			continue
		default:
			d, err := metrics.Parse(name)
			if err == nil && !d.HigherIsBetter && d.Binary {
				e.Value = 1
			} else {
				e.Value = 0
			}
		}
		out = append(out, e)
	}
	*v = out
}

// scoreRetrieval fills the retrieval and safety values of one unit.
func (sc *scorer) scoreRetrieval(u *unitSpec, o *output, r *runOut, it *ItemScore) {
	g := sc.viewRun(u, r)
	if g == nil {
		return
	}
	var table *resolve.AtomTable
	var asOf string
	var holder string
	if u.b2 != nil {
		table = sc.atomTable(r.atoms)
		asOf, holder = u.b2.AsOf, u.b2.Scope.Holder
	}
	asOfT, hasAsOf := parseTime(asOf)

	if len(g.futureGold) > 0 {
		it.Flags = append(it.Flags, "future-gold")
	}
	if len(g.holderGold) > 0 {
		it.Flags = append(it.Flags, "other-holder-gold")
	}
	var cands []metrics.Candidate
	if o != nil {
		seen := map[string]struct{}{}
		scored, unscored := 0, 0
		for _, x := range o.retrieved {
			if !firstRetrieval(seen, x.id, it) {
				continue
			}
			c := metrics.Candidate{ID: x.id, Score: x.score, HasScore: x.hasScore}
			if x.hasScore {
				scored++
				c.Strong = x.score >= sc.opt.StrongScore
			} else {
				unscored++
				c.Strong = true
			}
			c.Judged, c.Grade, c.Gold = g.grade(x.id)
			if g.unknown != nil && g.unknown(x.id) && !slices.Contains(it.Flags, "unknown-id") {
				it.Flags = append(it.Flags, "unknown-id")
			}
			if table != nil {
				if a, ok := table.Lookup(x.id); ok {
					if t, ok := parseTime(a.ObservedAt); ok && hasAsOf && t.After(asOfT) {
						c.Future = true
						if len(c.Gold) > 0 || c.Grade > 0 || g.futureGold[x.id] {
							// seed 000 §2 constraint 4: evidence observed
							// after as_of 不得作为 gold 命中 — it is judged
							// non-relevant for this item (b2Gold already
							// left it out of the gold and the ideal list)
							c.Gold, c.Grade = nil, 0
							if !slices.Contains(it.Flags, "future-gold") {
								it.Flags = append(it.Flags, "future-gold")
							}
						}
					}
					c.OtherHolder = a.Holder != "" && holder != "" && a.Holder != holder
					if c.OtherHolder && (len(c.Gold) > 0 || c.Grade > 0 || g.holderGold[x.id]) {
						// seed 000 §2 constraint 5: 跨 holder 泄漏即判错 —
						// another holder's atom is judged non-relevant for
						// this item (b2Gold already left it out of the gold
						// and the ideal list)
						c.Gold, c.Grade = nil, 0
						if !slices.Contains(it.Flags, "other-holder-gold") {
							it.Flags = append(it.Flags, "other-holder-gold")
						}
					}
				}
			}
			cands = append(cands, c)
		}
		if scored > 0 && unscored > 0 {
			it.Flags = append(it.Flags, "scores-ignored")
		}
	}
	cands = metrics.Canonicalize(cands)
	q := g.query(cands)
	q.Abstained = abstained(o, sc.refusals)
	put := func(family string, k int) {
		m := bindMetric(family, k)
		it.Values.Set(m.name, m.f.Compute(q, k))
	}
	if g.hasRetrieval {
		bound := sc.retrieval[0]
		if g.multiHop {
			bound = sc.retrieval[1]
		}
		if g.noGroups {
			bound = slices.DeleteFunc(slices.Clone(bound), func(m boundMetric) bool { return groupFamily(m.f.Name) })
		}
		sc.scoreRanking(q, bound, it)
		if g.ambiguous {
			it.Flags = append(it.Flags, "ambiguous-gold")
		}
		if g.unresolvedJ {
			it.Flags = append(it.Flags, "unresolved-judgment")
		}
	}
	if !u.Answerable {
		for _, k := range sc.opt.Cutoffs {
			put("false_recall", k)
		}
	}
	if u.b2 != nil && asOf != "" && !g.noTable {
		for _, k := range sc.opt.Cutoffs {
			put("temporal_correctness", k)
		}
	}
	if u.b2 != nil && holder != "" && !g.noTable {
		for _, k := range sc.opt.Cutoffs {
			put("holder_correctness", k)
		}
	}
	appendRetrieved(it, cands, sc.opt.Depth)
}

// firstRetrieval reports whether id is retrieved here for the first time
// for this item, recording it in seen; a repeat is scored once (the first)
// and flags the item "duplicate-retrieved" (once).
func firstRetrieval(seen map[string]struct{}, id string, it *ItemScore) bool {
	if _, dup := seen[id]; dup {
		if !slices.Contains(it.Flags, "duplicate-retrieved") {
			it.Flags = append(it.Flags, "duplicate-retrieved")
		}
		return false
	}
	seen[id] = struct{}{}
	return true
}

// boundMetric is one metric family bound to its cutoff (0: uncut).
type boundMetric struct {
	name string
	f    *metrics.Family
	k    int
}

func bindMetric(family string, k int) boundMetric {
	f, _ := metrics.LookupFamily(family)
	name := f.Name // f.Bind(k).Name, without building the descriptor
	if k > 0 {
		name += "@" + strconv.Itoa(k)
	}
	return boundMetric{name: name, f: f, k: k}
}

// retrievalMetrics lists the ranking metrics of a unit with retrieval gold:
// at every cutoff recall, hit (complete_hit and evidence_group_recall too
// for multi-hop gold), mrr, ndcg, p and judged; then the uncut mrr, ndcg,
// map, rprec and bpref.
func retrievalMetrics(cutoffs []int, multiHop bool) []boundMetric {
	var out []boundMetric
	for _, k := range cutoffs {
		out = append(out, bindMetric("recall", k), bindMetric("hit", k))
		if multiHop {
			out = append(out, bindMetric("complete_hit", k), bindMetric("evidence_group_recall", k))
		}
		for _, fam := range []string{"mrr", "ndcg", "p", "judged"} {
			out = append(out, bindMetric(fam, k))
		}
	}
	for _, fam := range []string{"mrr", "ndcg", "map", "rprec", "bpref"} {
		out = append(out, bindMetric(fam, 0))
	}
	return out
}

// groupFamily reports the metrics that need evidence groups resolved to
// the run's units: gold coverage (recall@k), complete_hit@k and
// evidence_group_recall@k.
func groupFamily(name string) bool {
	return name == "recall" || name == "complete_hit" || name == "evidence_group_recall"
}

// scoreRanking puts the bound metrics of ranking q into it.Values and
// counts the unjudged candidates within Depth (flag "unjudged").
func (sc *scorer) scoreRanking(q *metrics.Query, bound []boundMetric, it *ItemScore) {
	for _, m := range bound {
		it.Values.Set(m.name, m.f.Compute(q, m.k))
	}
	it.Unjudged = metrics.Unjudged(q, sc.opt.Depth)
	if it.Unjudged > 0 {
		it.Flags = append(it.Flags, "unjudged")
	}
}

// appendRetrieved adds the item browser's view of the canonical ranking:
// the candidates within depth with their marks. Ids are cloned: a streamed
// candidate's id views a block buffer that is reused.
func appendRetrieved(it *ItemScore, cands []metrics.Candidate, depth int) {
	for i, c := range cands {
		if i >= depth {
			break
		}
		m := report.RetrievedMark{Rank: i + 1, ID: strings.Clone(c.ID), Gold: len(c.Gold) > 0}
		if c.Judged {
			gr := c.Grade
			m.Grade = &gr
		}
		var fl []string
		if c.Future {
			fl = append(fl, "future")
		}
		if c.OtherHolder {
			fl = append(fl, "other-holder")
		}
		m.Flag = strings.Join(fl, ",")
		it.Detail.Retrieved = append(it.Detail.Retrieved, m)
	}
}

// resolutionTable lists every gold / judgment resolution once per table, with
// the runs that use the table ("" when every run uses it).
func (sc *scorer) resolutionTable(runs []*runOut) (all, amb []Resolved) {
	all, amb = []Resolved{}, []Resolved{}
	users := map[string][]string{}
	for _, r := range runs {
		users[r.atoms] = append(users[r.atoms], r.name)
	}
	// A seed-003 unit has one view per set of chunk qrels files; its anchors
	// resolve alike in each, so identical rows are listed once.
	seen := map[string]bool{}
	for _, key := range sc.viewOrder {
		g := sc.views[key]
		if g == nil {
			continue
		}
		u := sc.units[key.unit]
		if u.trec != nil {
			continue // qrels name docs directly: nothing was resolved
		}
		runLabel := ""
		if u.b2 != nil && len(users) > 1 {
			runLabel = strings.Join(users[key.table], ",")
		}
		for i, r := range g.rows {
			label := r.Label
			if g.judged[i] >= 0 {
				label = fmt.Sprintf("judgment g=%d: %s", g.judged[i], label)
			}
			row := Resolved{Run: runLabel, ItemID: u.ID, Gold: label, Atoms: nonNil(r.Atoms), Problem: r.Problem}
			if u.rag != nil {
				k := strings.Join(append([]string{row.Run, row.ItemID, row.Gold, row.Problem}, r.Atoms...), "\x00")
				if seen[k] {
					continue
				}
				seen[k] = true
			}
			all = append(all, row)
			if r.Problem != "" {
				amb = append(amb, row)
			}
		}
	}
	return all, amb
}

// presentMetrics lists the descriptors of every metric present in any item,
// in registry order (bare name before its cutoffs, cutoffs ascending).
func presentMetrics(set *Set, opt Options) []metrics.Descriptor {
	have := map[string]bool{}
	for _, rs := range set.Runs {
		for _, it := range rs.Items {
			for k := range it.Values.Names() {
				have[k] = true
			}
		}
	}
	out := []metrics.Descriptor{}
	for _, f := range metrics.Families() {
		f := f
		for _, k := range append([]int{0}, opt.Cutoffs...) {
			d := f.Bind(k)
			if have[d.Name] {
				out = append(out, d)
			}
		}
	}
	return out
}

// notes are the report notes of the scoring itself, per run: its
// first-stage twin was not made (a name clash); it retrieves for b-2 items
// without any atom table; its seed-003 evidence groups could not be
// resolved because chunk qrels apply but there is no chunk table.
func (sc *scorer) notes(set *Set, runs []*runOut) []Note {
	var out []Note
	for ri, r := range runs {
		rs := &set.Runs[ri]
		if r.twinClash {
			out = append(out, Note{Run: r.name, Text: "run " + r.name + " reranks, but another input already names a run " + r.name + ".retrieve: its first-stage twin is not made, so the rerank gain over its own first stage is not shown — rename that run"})
		}
		if r.setCaps["b2"].retrieves && sc.anyView(r, rs, func(u *unitSpec, g *goldView) bool { return u.b2 != nil && g.noTable }) {
			out = append(out, Note{Run: r.name, Text: "run " + r.name + ": no atom table was loaded, so its b-2 gold regions cannot be resolved: recall, hit, mrr, ndcg, temporal and holder correctness are not computed on b-2 (false_recall still is); load corpus/atoms.jsonl"})
		}
		if r.qrelsKey != "" && sc.anyView(r, rs, func(u *unitSpec, g *goldView) bool { return u.rag != nil && g.groupsUnresolved }) {
			out = append(out, Note{Run: r.name, Text: "run " + r.name + ": evidence groups not resolved: no chunks.jsonl; recall@k/complete_hit/evidence_group_recall are not computed — qrels grades drive hit/mrr/ndcg/p/map"})
		}
	}
	return out
}

// anyView reports whether the gold view of some unit in run r's scope
// satisfies f.
func (sc *scorer) anyView(r *runOut, rs *RunScores, f func(u *unitSpec, g *goldView) bool) bool {
	for i, u := range sc.units {
		if rs.Items[i].OutOfScope {
			continue
		}
		if g := sc.viewRun(u, r); g != nil && f(u, g) {
			return true
		}
	}
	return false
}

// qrelsConfig echoes which chunk qrels files grade which runs' chunks.
func (sc *scorer) qrelsConfig(runs []*runOut) report.KV {
	twin := map[string]bool{}
	for _, r := range runs {
		if strings.HasSuffix(r.name, ".retrieve") {
			twin[strings.TrimSuffix(r.name, ".retrieve")] = true
		}
	}
	var parts []string
	for _, c := range sc.qrels {
		scope := "every run"
		if c.run != "" {
			scope = "run " + c.run
			if twin[c.run] {
				scope += " (and " + c.run + ".retrieve)"
			}
		}
		parts = append(parts, c.path+" → "+scope)
	}
	return report.KV{Key: "chunk_qrels", Value: strings.Join(parts, "; ") + " (seed-003 qids: chunk-level grades 0–3, relevant = grade ≥ 2; a chunk also graded by an anchor takes the higher grade)"}
}

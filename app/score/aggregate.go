package score

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"eval752/app/itemscore"
	"eval752/app/metrics"
	"eval752/app/report"
	"eval752/app/stats"
)

// stratum is a set of units: "all", or the units whose Strata[Key] == Value.
type stratum struct {
	Key, Value string
	Label      string // "all", "split=test"
	Idx        []int  // unit indices, ascending
}

// buildStrata returns "all" followed, for each key in order, by one stratum
// per value present (values sorted byte-wise). Keys no unit carries are
// skipped; units without a key are in no stratum of that key.
func buildStrata(units []itemscore.Unit, keys []string) []stratum {
	all := stratum{Key: "", Value: "", Label: "all", Idx: make([]int, len(units))}
	for i := range units {
		all.Idx[i] = i
	}
	out := []stratum{all}
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		byVal := map[string][]int{}
		for i, u := range units {
			if v, ok := u.Strata[k]; ok {
				byVal[v] = append(byVal[v], i)
			}
		}
		vals := make([]string, 0, len(byVal))
		for v := range byVal {
			vals = append(vals, v)
		}
		sort.Strings(vals)
		for _, v := range vals {
			out = append(out, stratum{Key: k, Value: v, Label: k + "=" + v, Idx: byVal[v]})
		}
	}
	return out
}

// strataKeys lists the keys that produced at least one stratum, in order.
func strataKeys(strata []stratum) []string {
	var keys []string
	for _, s := range strata[1:] {
		if len(keys) == 0 || keys[len(keys)-1] != s.Key {
			keys = append(keys, s.Key)
		}
	}
	return keys
}

// figure is one aggregated number with everything the report shows beside it.
type figure struct {
	Value, Lo, Hi float64 // NaN when undefined
	N, Denom      int
	Flag          string
	Int           bool
	NoCI          bool
	Digits        int // decimals text renderers print (0 = default 4)
}

// sigDigits makes text renderers print f's value (and interval) to n
// significant digits: cost 0.000612 → "0.000612", 612 → "612"; never
// fewer than 0 nor more than 8 decimals.
func (f *figure) sigDigits(n int) {
	if math.IsNaN(f.Value) || f.Value == 0 {
		f.Digits = n
		return
	}
	d := n - 1 - int(math.Floor(math.Log10(math.Abs(f.Value))))
	switch {
	case d <= 0:
		f.Int = true
	case d > 8:
		f.Digits = 8
	default:
		f.Digits = d
	}
}

func nanFigure() figure { return figure{Value: math.NaN(), Lo: math.NaN(), Hi: math.NaN()} }

// cell turns a figure into a report cell for metric d (whose threshold and
// pass/fail it carries). Undefined numbers are left nil, never NaN, so the
// JSON stays valid. The cell's numbers point into bx's blocks (nil: one
// allocation each).
func (f figure) cell(bx *boxes, d metrics.Descriptor, name, stratum, run string) report.Cell {
	c := report.Cell{Metric: name, Stratum: stratum, Run: run, N: bx.I(f.N), Denom: bx.I(f.Denom), Flag: f.Flag, Int: f.Int, Digits: f.Digits}
	if !math.IsNaN(f.Value) {
		c.Value = bx.F(f.Value)
	}
	if !f.NoCI && !math.IsNaN(f.Lo) && !math.IsNaN(f.Hi) {
		c.CILow, c.CIHigh = bx.F(f.Lo), bx.F(f.Hi)
	}
	if d.Threshold != nil {
		c.Threshold = thresholdText(*d.Threshold)
		if c.Value != nil {
			c.Pass = report.B(d.Threshold.Pass(*c.Value))
		}
	}
	return c
}

// boxes hands out the pointers of report cells (report.Cell's Value, N,
// Denom, CI bounds) from shared blocks: one allocation per boxBlock values
// instead of one per value, which the garbage collector of the page's
// single-threaded worker feels. A nil *boxes allocates each value.
type boxes struct {
	f []float64
	i []int
}

const boxBlock = 512

func (bx *boxes) F(x float64) *float64 {
	if bx == nil {
		return report.F(x)
	}
	if len(bx.f) == cap(bx.f) {
		bx.f = make([]float64, 0, boxBlock)
	}
	bx.f = append(bx.f, x)
	return &bx.f[len(bx.f)-1]
}

func (bx *boxes) I(x int) *int {
	if bx == nil {
		return report.I(x)
	}
	if len(bx.i) == cap(bx.i) {
		bx.i = make([]int, 0, boxBlock)
	}
	bx.i = append(bx.i, x)
	return &bx.i[len(bx.i)-1]
}

// thresholdText renders a threshold as "≥ 0.90" / "≤ 0.10".
func thresholdText(t metrics.Threshold) string {
	op := "≥"
	switch t.Op {
	case "<=":
		op = "≤"
	case "<":
		op = "<"
	}
	if t.Value >= 100 && t.Value == math.Trunc(t.Value) {
		return op + " " + strconv.FormatFloat(t.Value, 'f', 0, 64) // a latency in ms
	}
	return op + " " + strconv.FormatFloat(t.Value, 'f', 2, 64)
}

// view is a Set restricted to the selected runs, with its strata and the
// per-item value columns extracted once.
type view struct {
	set    *itemscore.Set
	opt    Options
	runs   []*itemscore.RunScores
	strata []stratum
	// metrics are the per-item metrics of the Set in registry order, except
	// the refusal indicators tp/fp/fn which only feed refusal P/R/F1.
	metrics []metrics.Descriptor
	// cols[r][m][i] is run r's value of metrics[m] on unit i, NaN when the
	// key is absent (metric not applicable).
	cols [][][]float64
	// flag[r][m][i] is itemscore.FlagsFor of run r, metrics[m], unit i, as a
	// set of bits (flagUnjudged | flagUnresolved; 0 none); ambiguous[r][i] is whether
	// run r's item i has ambiguous gold. Both exclude missing items.
	flag      [][][]uint8
	ambiguous [][]bool
	// seeds[s] are the seeds whose targets apply on stratum s (nil = all),
	// see descFor; runSeeds caches them per stratum, run and metric, over
	// the units where that run has the metric (see descForRun).
	seeds    [][]string
	runSeeds map[seedKey][]string
	seedMu   sync.Mutex
	metricAt map[string]int
	// ci remembers the bootstrap intervals resampled (the Set's memo, so a
	// comparison reuses the score report's; or this view's own).
	ci *stats.Memo
	// box holds the numbers of the report's figure cells (not safe for
	// concurrent use: tables are built on one goroutine).
	box *boxes
}

// Flag bits of view.flag: an item can carry both (one never hides the
// other).
const (
	flagUnjudged uint8 = 1 << iota
	flagUnresolved
)

// seedKey names one cached list of seeds: stratum, run, metric.
type seedKey struct {
	s, r   int
	metric string
}

func newView(set *itemscore.Set, opt Options) *view {
	v := &view{set: set, opt: opt, runSeeds: map[seedKey][]string{}, metricAt: map[string]int{}, ci: set.CIs, box: &boxes{}}
	if v.ci == nil {
		v.ci = &stats.Memo{}
	}
	for i := range set.Runs {
		if len(opt.Runs) == 0 || slices.Contains(opt.Runs, set.Runs[i].Run) {
			v.runs = append(v.runs, &set.Runs[i])
		}
	}
	v.strata = buildStrata(set.Units, opt.Strata)
	v.seeds = make([][]string, len(v.strata))
	for s := range v.strata {
		v.seeds[s] = v.stratumSeeds(s)
	}
	v.metrics = append(v.metrics, set.Metrics...)
	for m, d := range v.metrics {
		v.metricAt[d.Name] = m
	}
	v.cols = make([][][]float64, len(v.runs))
	v.flag = make([][][]uint8, len(v.runs))
	v.ambiguous = make([][]bool, len(v.runs))
	for r := range v.runs {
		v.cols[r] = make([][]float64, len(v.metrics))
		v.flag[r] = make([][]uint8, len(v.metrics))
	}
	// Columns in parallel: each (run, metric) writes only its own slot.
	if nm := len(v.metrics); nm > 0 {
		parallel(len(v.runs)*nm, func(j int) {
			r, m := j/nm, j%nm
			rs, d := v.runs[r], v.metrics[m]
			pd, perr := metrics.Parse(d.Name) // once per column, not per item
			col := make([]float64, len(set.Units))
			fl := make([]uint8, len(set.Units))
			for i := range col {
				col[i] = math.NaN()
				if i >= len(rs.Items) {
					continue
				}
				it := &rs.Items[i]
				x, ok := it.Values.Get(d.Name)
				if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
					continue // not applicable; a non-finite value is treated the same
				}
				col[i] = x
				if !it.Missing && perr == nil && (it.Unjudged > 0 || len(it.Flags) > 0) {
					for _, f := range flagsForParsed(pd, d.Name, it) {
						switch f {
						case "unjudged":
							fl[i] |= flagUnjudged
						case "unresolved-judgment":
							fl[i] |= flagUnresolved
						}
					}
				}
			}
			v.cols[r][m] = col
			v.flag[r][m] = fl
		})
	}
	for r, rs := range v.runs {
		v.ambiguous[r] = make([]bool, len(set.Units))
		for i := range set.Units {
			if i < len(rs.Items) && !rs.Items[i].Missing {
				v.ambiguous[r][i] = slices.Contains(rs.Items[i].Flags, "ambiguous-gold")
			}
		}
	}
	return v
}

func (v *view) runNames() []string {
	out := make([]string, len(v.runs))
	for i, r := range v.runs {
		out[i] = r.Run
	}
	return out
}

func (v *view) metricIndex(name string) int {
	for i, d := range v.metrics {
		if d.Name == name {
			return i
		}
	}
	return -1
}

// item returns run r's score of unit i (a missing one when the run's slice
// is short, which a well-formed Set never is). It points into the Set:
// callers only read it.
func (v *view) item(r, i int) *itemscore.ItemScore {
	if i < len(v.runs[r].Items) {
		return &v.runs[r].Items[i]
	}
	return &itemscore.ItemScore{Missing: true}
}

// setSeeds names the seed that defines each set's targets: seed 000 §4 for
// b-2, seed 003 §7 for seed-003 questions. Sets without targets of their own
// (eval752 items, v2, TREC) are measured against every seed's targets.
var setSeeds = map[string]string{"b2": "seed 000", "rag": "seed 003"}

// descFor is d as shown on stratum s: when every unit of the stratum
// belongs to sets with targets of their own (b-2, seed 003), a threshold
// from another seed is dropped — seed 003's Hit@5 ≥ 0.80 (a rerank target
// over graded chunks) says nothing about a b-2 ranking, and seed 000 only
// asks to report MRR and nDCG@10. Mixed or other strata keep every target.
func (v *view) descFor(d metrics.Descriptor, s int) metrics.Descriptor {
	if d.Threshold == nil || s < 0 || s >= len(v.strata) {
		return d
	}
	return keepSeeds(d, v.seeds[s])
}

// keepSeeds drops d's threshold unless it comes from one of seeds (nil:
// every seed's target applies).
func keepSeeds(d metrics.Descriptor, seeds []string) metrics.Descriptor {
	if d.Threshold == nil || seeds == nil {
		return d
	}
	for _, seed := range seeds {
		if strings.HasPrefix(d.Threshold.Source, seed) {
			return d
		}
	}
	d.Threshold = nil
	return d
}

// descForRun is descFor for run r: a reranked run (seed 003 §6.1) is
// judged by seed 003 §7's rerank targets (重排: Hit@5, MRR@10, nDCG@10) and
// not by the first-stage ones (初召回: Hit@20/50, CompleteHit@20, …), which
// its "<run>.retrieve" twin and every run without rerank are judged by.
func (v *view) descForRun(d metrics.Descriptor, s, r int) metrics.Descriptor {
	if r >= 0 && r < len(v.runs) && v.runs[r].Reranked {
		switch {
		case d.RerankThreshold != nil:
			t := *d.RerankThreshold
			d.Threshold = &t
		case d.Threshold != nil && d.Threshold.Stage == "initial":
			d.Threshold = nil
		}
	}
	if d.Threshold == nil || s < 0 || s >= len(v.strata) || r < 0 || r >= len(v.runs) {
		return v.descFor(d, s)
	}
	return keepSeeds(d, v.seedsFor(s, r, d.Name))
}

// seedsFor lists the seeds of the units of stratum s on which run r has
// metric name (within r's scope when name is no per-item metric): a run
// scored on b-2 units only is judged by seed 000's targets even on a
// stratum that mixes sets. nil when some such unit's set has no seed of its
// own (every target applies).
func (v *view) seedsFor(s, r int, name string) []string {
	k := seedKey{s, r, name}
	v.seedMu.Lock()
	defer v.seedMu.Unlock()
	if seeds, ok := v.runSeeds[k]; ok {
		return seeds
	}
	m, perItem := v.metricAt[name]
	var seeds []string
	none := false
	for _, i := range v.strata[s].Idx {
		u := v.set.Units[i]
		if perItem && math.IsNaN(v.cols[r][m][i]) || !perItem && !v.inScope(r, u.Set) {
			continue
		}
		seed, ok := setSeeds[u.Set]
		if !ok {
			none = true
			break
		}
		if !slices.Contains(seeds, seed) {
			seeds = append(seeds, seed)
		}
	}
	switch {
	case none:
		seeds = nil
	case seeds == nil:
		seeds = v.seeds[s] // the run has no such unit here: the stratum decides
	}
	v.runSeeds[k] = seeds
	return seeds
}

// targetText is the target column of metric d on stratum s over the shown
// runs: one target, or the first-stage one and the reranked runs' one
// ("≥ 0.60; reranked ≥ 0.70") when they differ.
func (v *view) targetText(d metrics.Descriptor, s int) string {
	var plain, reranked []string
	for r := range v.runs {
		t := thresholdOf(v.descForRun(d, s, r))
		if v.runs[r].Reranked {
			if !slices.Contains(reranked, t) {
				reranked = append(reranked, t)
			}
		} else if !slices.Contains(plain, t) {
			plain = append(plain, t)
		}
	}
	switch {
	case len(reranked) == 0:
		return strings.Join(plain, "; ")
	case len(plain) == 0, slices.Equal(plain, reranked):
		return strings.Join(reranked, "; ")
	}
	return strings.Join(plain, "; ") + "; reranked " + strings.Join(reranked, "; ")
}

// hasTarget reports whether metric d has a target for some shown run on
// stratum s.
func (v *view) hasTarget(d metrics.Descriptor, s int) bool {
	for r := range v.runs {
		if v.descForRun(d, s, r).Threshold != nil {
			return true
		}
	}
	return false
}

// stratumSeeds lists the seeds of the sets of stratum s's units, or nil
// when some unit's set has no seed of its own (then every target applies).
func (v *view) stratumSeeds(s int) []string {
	var seeds []string
	for _, i := range v.strata[s].Idx {
		seed, ok := setSeeds[v.set.Units[i].Set]
		if !ok {
			return nil
		}
		if !slices.Contains(seeds, seed) {
			seeds = append(seeds, seed)
		}
	}
	return seeds
}

// inScope reports whether set is in run r's scope. A run without a scope
// list (a Set built by hand, before scopes) has every set in scope; units
// without a set name are never reported as out of scope.
func (v *view) inScope(r int, set string) bool {
	sets := v.runs[r].Sets
	return set == "" || sets == nil || slices.Contains(sets, set)
}

// scoped counts the units of s in run r's scope (not OutOfScope).
func (v *view) scoped(r int, s stratum) int {
	n := 0
	for _, i := range s.Idx {
		if !v.item(r, i).OutOfScope {
			n++
		}
	}
	return n
}

// parallel runs f(0..n-1) on GOMAXPROCS goroutines. f must write only its
// own result slot, so the outcome does not depend on scheduling.
func parallel(n int, f func(j int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for j := range n {
			f(j)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				f(j)
			}
		}()
	}
	for j := range n {
		next <- j
	}
	close(next)
	wg.Wait()
}

// means computes, for every run, stratum and per-item metric, the mean over
// the units where the metric applies, with n, denominator, interval and
// flags: out[r][s][m].
//
// Metrics that apply to exactly the same units of a stratum share one
// stream of bootstrap draws (stats.BootstrapMeanCIs); a column's interval is
// the same as it would be alone.
func (v *view) means() [][][]figure {
	out := make([][][]figure, len(v.runs))
	for r := range out {
		out[r] = make([][]figure, len(v.strata))
	}
	// A stratum with the same units as an earlier one (e.g. "all" and
	// set=trec when every unit is a TREC query) has the same figures:
	// stratumMeans depends on the units only. Compute it once and copy.
	same := make([]int, len(v.strata))
	var todo []int
	for s := range v.strata {
		same[s] = s
		for t := range s {
			if same[t] == t && slices.Equal(v.strata[t].Idx, v.strata[s].Idx) {
				same[s] = t
				break
			}
		}
		if same[s] == s {
			todo = append(todo, s)
		}
	}
	parallel(len(v.runs)*len(todo), func(j int) {
		r, s := j/len(todo), todo[j%len(todo)]
		out[r][s] = v.stratumMeans(r, v.strata[s])
	})
	for r := range out {
		for s, t := range same {
			if t != s {
				out[r][s] = slices.Clone(out[r][t])
			}
		}
	}
	return out
}

func (v *view) stratumMeans(r int, s stratum) []figure {
	figs := make([]figure, len(v.metrics))
	idxs := make([][]int, len(v.metrics))
	buf := make([]int, len(v.metrics)*len(s.Idx)) // one backing array
	for m := range v.metrics {
		col := v.cols[r][m]
		idxs[m] = buf[m*len(s.Idx) : m*len(s.Idx) : (m+1)*len(s.Idx)]
		for _, i := range s.Idx {
			if !math.IsNaN(col[i]) {
				idxs[m] = append(idxs[m], i)
			}
		}
	}
	for _, g := range groupByUnits(idxs) {
		idx := idxs[g[0]]
		cols := make([][]float64, len(g))
		for k, m := range g {
			cols[k] = gather(v.cols[r][m], idx)
		}
		cis := v.ci.MeanCIs(cols, v.opt.Bootstrap, v.opt.Level, v.opt.Seed)
		n := 0
		for _, i := range idx {
			if !v.item(r, i).Missing {
				n++
			}
		}
		for k, m := range g {
			f := figure{Value: stats.Mean(cols[k]), Lo: cis[k].Low, Hi: cis[k].High, N: n, Denom: len(idx)}
			f.Flag = v.flags(r, m, idx)
			figs[m] = f
		}
	}
	return figs
}

// groupByUnits groups the positions of idxs whose unit lists are equal, in
// order of first appearance: metrics over the same units can share one
// stream of bootstrap draws.
func groupByUnits(idxs [][]int) [][]int {
	var groups [][]int
	byHash := map[uint64][]int{} // hash → group numbers
	for m, idx := range idxs {
		// FNV-1a over the indices' eight bytes each
		h := uint64(14695981039346656037)
		for _, i := range idx {
			for k := range 8 {
				h ^= uint64(byte(uint64(i) >> (8 * k)))
				h *= 1099511628211
			}
		}
		key := h ^ uint64(len(idx))
		found := -1
		for _, gi := range byHash[key] {
			if slices.Equal(idxs[groups[gi][0]], idx) {
				found = gi
				break
			}
		}
		if found < 0 {
			found = len(groups)
			groups = append(groups, nil)
			byHash[key] = append(byHash[key], found)
		}
		groups[found] = append(groups[found], m)
	}
	return groups
}

// gather returns col[idx[0]], col[idx[1]], ….
func gather(col []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for j, i := range idx {
		out[j] = col[i]
	}
	return out
}

// flags summarises the per-item conditions a reviewer must see beside a
// figure (itemscore.FlagsFor decides per item; an item counts under each of
// its flags): "unjudged: k items" (seed
// 003: a figure computed over unjudged candidates is marked, never silently
// treated as 0), "unresolved judgments: k items" (nDCG over graded
// judgments that did not resolve) and, for retrieval metrics,
// "ambiguous gold: k items". Missing items carry no flag (they are listed as
// missing).
func (v *view) flags(r, m int, idx []int) string {
	d := v.metrics[m]
	geo := d.Group == metrics.GroupRetrieval // safety metrics do not read the gold
	unjudged, unresolved, ambiguous := 0, 0, 0
	for _, i := range idx {
		if v.flag[r][m][i]&flagUnjudged != 0 {
			unjudged++
		}
		if v.flag[r][m][i]&flagUnresolved != 0 {
			unresolved++
		}
		if geo && v.ambiguous[r][i] {
			ambiguous++
		}
	}
	var parts []string
	if unjudged > 0 {
		parts = append(parts, "unjudged: "+plural(unjudged, "item"))
	}
	if unresolved > 0 {
		parts = append(parts, "unresolved judgments: "+plural(unresolved, "item"))
	}
	if ambiguous > 0 {
		parts = append(parts, "ambiguous gold: "+plural(ambiguous, "item"))
	}
	return strings.Join(parts, "; ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// refusalCounts sums the per-item refusal indicators of run r over the
// units of idx that carry them.
type refusalCounts struct {
	idx        []int // units with the indicators
	tp, fp, fn []float64
	n          int // of idx, units with a result
}

func (v *view) refusal(r int, s stratum) (refusalCounts, bool) {
	var rc refusalCounts
	rs := v.runs[r]
	for _, i := range s.Idx {
		if i >= len(rs.Items) {
			continue
		}
		it := rs.Items[i]
		tp, ok1 := it.Values.Get("refusal.tp")
		fp, ok2 := it.Values.Get("refusal.fp")
		fn, ok3 := it.Values.Get("refusal.fn")
		if !ok1 && !ok2 && !ok3 {
			continue
		}
		rc.idx = append(rc.idx, i)
		rc.tp = append(rc.tp, tp)
		rc.fp = append(rc.fp, fp)
		rc.fn = append(rc.fn, fn)
		if !it.Missing {
			rc.n++
		}
	}
	return rc, len(rc.idx) > 0 || v.hasRefusal()
}

func (v *view) hasRefusal() bool {
	for _, d := range v.metrics {
		if d.Name == "refusal.tp" {
			return true
		}
	}
	return false
}

// prf returns precision, recall and F1 over the items sel of rc (all items
// when sel is nil), positive class = should refuse:
//
//	P = Σtp/(Σtp+Σfp), R = Σtp/(Σtp+Σfn), F1 = 2Σtp/(2Σtp+Σfp+Σfn)
func (rc refusalCounts) prf(sel []int) (p, r, f1 float64) {
	var tp, fp, fn float64
	if sel == nil {
		for j := range rc.tp {
			tp, fp, fn = tp+rc.tp[j], fp+rc.fp[j], fn+rc.fn[j]
		}
	} else {
		for _, j := range sel {
			tp, fp, fn = tp+rc.tp[j], fp+rc.fp[j], fn+rc.fn[j]
		}
	}
	ratio := func(a, b float64) float64 {
		if b == 0 {
			return math.NaN()
		}
		return a / b
	}
	return ratio(tp, tp+fp), ratio(tp, tp+fn), ratio(2*tp, 2*tp+fp+fn)
}

// sparse lists, for each indicator (tp, fp, fn), the positions of rc
// whose value is not 0 and the values, when every value is a small
// integer (0/1 indicators are): their sums over a resample are then exact
// in any order, so prfOf(counts) gives prf's bits. ok is false otherwise.
func (rc refusalCounts) sparse() (sp refusalSparse, ok bool) {
	for k, xs := range [3][]float64{rc.tp, rc.fp, rc.fn} {
		for j, x := range xs {
			if x != math.Trunc(x) || math.Abs(x) > 1<<20 {
				return sp, false
			}
			if x != 0 {
				sp.pos[k] = append(sp.pos[k], j)
				sp.val[k] = append(sp.val[k], int(x))
			}
		}
	}
	return sp, true
}

type refusalSparse struct {
	pos [3][]int // tp, fp, fn: positions of rc with a value ≠ 0
	val [3][]int
}

// prfOf is refusalCounts.prf on the resample that draws position j
// count[j] times.
func (sp *refusalSparse) prfOf(count []uint16) (p, r, f1 float64) {
	var sums [3]float64
	for k := range sums {
		n := 0
		for t, j := range sp.pos[k] {
			n += int(count[j]) * sp.val[k][t]
		}
		sums[k] = float64(n)
	}
	tp, fp, fn := sums[0], sums[1], sums[2]
	ratio := func(a, b float64) float64 {
		if b == 0 {
			return math.NaN()
		}
		return a / b
	}
	return ratio(tp, tp+fp), ratio(tp, tp+fn), ratio(2*tp, 2*tp+fp+fn)
}

func (rc refusalCounts) sums() (tp, fp, fn int) {
	for j := range rc.tp {
		tp += int(rc.tp[j])
		fp += int(rc.fp[j])
		fn += int(rc.fn[j])
	}
	return
}

// refusalFigures returns precision, recall and F1 with percentile bootstrap
// intervals (resampling the stratum's units; replicates where a ratio is
// undefined are dropped, see stats.PercentileInterval).
func (v *view) refusalFigures(rc refusalCounts) [3]figure {
	p, r, f1 := rc.prf(nil)
	vals := [3]float64{p, r, f1}
	// the three ratios of one resample come from the same sums: one pass
	var cis []stats.Interval
	ok := false
	if sp, exact := rc.sparse(); exact {
		cis, ok = stats.BootstrapIntervalsCounts(len(rc.idx), v.opt.Bootstrap, v.opt.Level, v.opt.Seed, 3, func(count []uint16, out []float64) {
			out[0], out[1], out[2] = sp.prfOf(count)
		})
	}
	if !ok {
		cis = stats.BootstrapIntervalsK(len(rc.idx), v.opt.Bootstrap, v.opt.Level, v.opt.Seed, 3, func(idx []int, out []float64) {
			out[0], out[1], out[2] = rc.prf(idx)
		})
	}
	var out [3]figure
	for k := range out {
		out[k] = figure{Value: vals[k], Lo: cis[k].Low, Hi: cis[k].High, N: rc.n, Denom: len(rc.idx)}
	}
	return out
}

// costValues returns run r's values of one cost field over the units of s
// that carry it.
func (v *view) costValues(r int, s stratum, field string) []float64 {
	var out []float64
	for _, i := range s.Idx {
		it := v.item(r, i)
		switch field {
		case "latency_ms":
			if it.LatencyMS != nil {
				out = append(out, *it.LatencyMS)
			}
		case "tokens.input":
			if it.InputTokens != nil {
				out = append(out, float64(*it.InputTokens))
			}
		case "tokens.output":
			if it.OutputTokens != nil {
				out = append(out, float64(*it.OutputTokens))
			}
		case "cost_usd":
			if it.CostUSD != nil {
				out = append(out, *it.CostUSD)
			}
		}
	}
	return out
}

// costFields are the cost figures, in registry order.
var costFields = []string{"latency_ms", "tokens.input", "tokens.output", "cost_usd"}

func (v *view) hasCost(field string) bool {
	for r := range v.runs {
		if len(v.costValues(r, v.strata[0], field)) > 0 {
			return true
		}
	}
	return false
}

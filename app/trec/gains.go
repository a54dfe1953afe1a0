package trec

// relGain is one relevance level with its gain and the number of qrels docs
// at that level (gain_init.c's REL_GAIN).
type relGain struct {
	level      int64
	gain       float64
	numAtLevel int64
}

// validInt is gain_init.c's valid_int: optional sign, then one or more digits.
func validInt(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// setupGains builds the gain table of the ndcg family (setup_gains): the
// "level=gain" parameters first (levels that are not integers are ignored),
// then every level 0..num_rel_levels-1 not given, with gain = level. The
// table is sorted by increasing gain with trec_eval's comparator
// (int)(g1 − g2), which truncates: gains closer than 1 compare equal and keep
// their insertion order. That is trec_eval's bug, reproduced on purpose
// (SEMANTICS.md: ndcg.1=0.5,2=0.7,3=0.9 gives 0 for every query).
func setupGains(in *instance, q *query) []relGain {
	gains := make([]relGain, 0, len(in.pairs)+int(q.numRelLevels))
	for _, p := range in.pairs {
		if !validInt(p.level) {
			continue
		}
		gains = append(gains, relGain{level: atol([]byte(p.level)), gain: p.gain})
	}
	nParams := len(gains)
	for lvl := int64(0); lvl < q.numRelLevels; lvl++ {
		j := 0
		for j < nParams && gains[j].level != lvl {
			j++
		}
		if j < nParams {
			gains[j].numAtLevel = q.relLevels[lvl]
		} else {
			gains = append(gains, relGain{level: lvl, gain: float64(lvl), numAtLevel: q.relLevels[lvl]})
		}
	}
	glibcMsort(gains, func(a, b *relGain) int { return int(a.gain - b.gain) })
	return gains
}

// glibcMsort is glibc's qsort for small arrays (msort_with_tmp): a top-down
// merge sort that takes from the left run while cmp(left, right) <= 0. With
// a consistent comparator it is just a stable sort; with trec_eval's
// truncating gain comparator it reproduces trec_eval's order exactly.
func glibcMsort(a []relGain, cmp func(a, b *relGain) int) {
	if len(a) <= 1 {
		return
	}
	tmp := make([]relGain, len(a))
	var rec func(b []relGain)
	rec = func(b []relGain) {
		n := len(b)
		if n <= 1 {
			return
		}
		n1 := n / 2
		b1, b2 := b[:n1], b[n1:]
		rec(b1)
		rec(b2)
		t := tmp[:0]
		i, j := 0, 0
		for i < len(b1) && j < len(b2) {
			if cmp(&b1[i], &b2[j]) <= 0 {
				t = append(t, b1[i])
				i++
			} else {
				t = append(t, b2[j])
				j++
			}
		}
		t = append(t, b1[i:]...)
		t = append(t, b2[j:]...)
		copy(b, t)
	}
	rec(a)
}

// gainOf is get_gain: the gain of a relevance value, 0 if its level is not
// in the table (non-pool and unjudged docs, unless a pair names them).
func gainOf(rel int64, gains []relGain) float64 {
	for i := range gains {
		if gains[i].level == rel {
			return gains[i].gain
		}
	}
	return 0
}

// idealWalker yields the ideal gain sequence: the table walked from the
// highest gain down, each level repeated numAtLevel times; 0 once a level
// with gain <= 0 (or the end) is reached.
type idealWalker struct {
	gains      []relGain
	cur        int
	numAtLevel int64
	gain       float64
}

func newIdealWalker(gains []relGain) *idealWalker {
	w := &idealWalker{gains: gains, cur: len(gains) - 1}
	if w.cur >= 0 {
		w.gain = gains[w.cur].gain
	}
	return w
}

// next advances one rank and returns the ideal gain there.
func (w *idealWalker) next() float64 {
	w.numAtLevel++
	for w.cur >= 0 && w.numAtLevel > w.gains[w.cur].numAtLevel {
		w.numAtLevel = 1
		w.cur--
		if w.cur >= 0 {
			w.gain = w.gains[w.cur].gain
		} else {
			w.gain = 0
		}
	}
	return w.gain
}

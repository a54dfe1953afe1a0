package audit

import (
	"eval752/app/fmath"

	"maps"
	"math"
	"slices"
	"sort"
)

// tfidfIndex is a character n-gram TF-IDF index over corpus passages, the
// local lexical similarity of the refusal audit. It works for Chinese (no
// word segmentation needed) and for English alike.
//
// For a text t (bare form: width folded, whitespace and punctuation removed,
// Latin lower-cased) its terms are all character n-grams for n in grams
// (default 2 and 3). With N passages and df(g) the number of passages that
// contain g:
//
//	idf(g)   = ln((1 + N) / (1 + df(g))) + 1
//	w(g, t)  = (1 + ln tf(g, t)) · idf(g)
//	sim(q,p) = Σ_g w(g,q)·w(g,p) / (‖w(·,q)‖ · ‖w(·,p)‖)
//
// All weights are ≥ 0, so the cosine lies in [0, 1]: 1 for the same bag of
// n-grams, 0 for no n-gram in common. Query n-grams absent from the corpus
// (df = 0) count in the query norm, so words the corpus never uses lower
// the similarity. The scale is not the scale of an embedding cosine (seed
// 002's 0.65 is a text-embedding similarity); see DefaultOptions.
type tfidfIndex struct {
	grams    []int
	vocab    map[string]int32
	df       []int32
	postings [][]posting
	n        int
}

type posting struct {
	doc int32
	w   float32
}

func termCounts(text string, grams []int) map[string]int {
	rs := foldDigits(bare(text, true))
	out := map[string]int{}
	for _, n := range grams {
		if n <= 0 {
			continue
		}
		if len(rs) < n {
			if len(rs) > 0 && n == grams[0] {
				out[string(rs)]++
			}
			continue
		}
		for i := 0; i+n <= len(rs); i++ {
			out[string(rs[i:i+n])]++
		}
	}
	return out
}

func newTFIDF(passages []string, grams []int) *tfidfIndex {
	ix := &tfidfIndex{grams: grams, vocab: map[string]int32{}, n: len(passages)}
	type tc struct {
		id int32
		n  int
	}
	counts := make([][]tc, len(passages))
	for i, p := range passages {
		c := termCounts(p, grams)
		// Terms in byte order, so term ids — and with them the order of the
		// floating-point sums below — are the same on every run.
		terms := slices.Sorted(maps.Keys(c))
		row := make([]tc, 0, len(c))
		for _, g := range terms {
			n := c[g]
			id, ok := ix.vocab[g]
			if !ok {
				id = int32(len(ix.df))
				ix.vocab[g] = id
				ix.df = append(ix.df, 0)
			}
			ix.df[id]++
			row = append(row, tc{id, n})
		}
		counts[i] = row
	}
	ix.postings = make([][]posting, len(ix.df))
	for i, row := range counts {
		sort.Slice(row, func(a, b int) bool { return row[a].id < row[b].id })
		var norm float64
		ws := make([]float64, len(row))
		for k, t := range row {
			w := (1 + fmath.Log(float64(t.n))) * ix.idf(ix.df[t.id])
			ws[k] = w
			norm += w * w
		}
		norm = math.Sqrt(norm)
		if norm == 0 {
			continue
		}
		for k, t := range row {
			ix.postings[t.id] = append(ix.postings[t.id], posting{doc: int32(i), w: float32(ws[k] / norm)})
		}
	}
	return ix
}

func (ix *tfidfIndex) idf(df int32) float64 {
	return fmath.Log(float64(1+ix.n)/float64(1+df)) + 1
}

// best returns the passage most similar to q and its cosine; -1 when the
// corpus is empty or q shares no n-gram with it. Ties go to the lower index
// (the earlier passage in load order).
func (ix *tfidfIndex) best(q string) (int, float64) {
	c := termCounts(q, ix.grams)
	terms := make([]string, 0, len(c))
	for g := range c {
		terms = append(terms, g)
	}
	sort.Strings(terms)
	var norm float64
	type qt struct {
		id int32
		w  float64
	}
	var qs []qt
	for _, g := range terms {
		id, ok := ix.vocab[g]
		df := int32(0)
		if ok {
			df = ix.df[id]
		}
		w := (1 + fmath.Log(float64(c[g]))) * ix.idf(df)
		norm += w * w
		if ok {
			qs = append(qs, qt{id, w})
		}
	}
	if norm == 0 || len(qs) == 0 {
		return -1, 0
	}
	norm = math.Sqrt(norm)
	acc := map[int32]float64{}
	for _, t := range qs {
		for _, p := range ix.postings[t.id] {
			acc[p.doc] += t.w / norm * float64(p.w)
		}
	}
	bi, bs := -1, 0.0
	for d, s := range acc {
		if s > bs || (s == bs && bi >= 0 && int(d) < bi) {
			bi, bs = int(d), s
		}
	}
	if bs > 1 { // float32 rounding
		bs = 1
	}
	return bi, bs
}

// foldDigits replaces every run of ASCII digits (after width folding) by a
// single '0': "180℃、220℃" and "45℃" then share the gram "0℃". A question
// rarely repeats the passage's exact numbers, and without folding every
// distinct number adds n-grams of its own that lengthen a numeric passage's
// vector and hide its wording (a parameter table scored lower than a short
// clause with one shared phrase).
func foldDigits(rs []rune) []rune {
	out := rs[:0:0]
	for i, r := range rs {
		if r >= '0' && r <= '9' {
			if i > 0 && rs[i-1] >= '0' && rs[i-1] <= '9' {
				continue
			}
			out = append(out, '0')
			continue
		}
		out = append(out, r)
	}
	return out
}

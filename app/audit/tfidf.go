package audit

import (
	"maps"
	"slices"

	"eval752/app/fmath"
)

// lexIndex is the local lexical similarity of the refusal audit: how much
// of a question one corpus passage covers, on character n-grams weighted by
// their rarity in the corpus. It needs no word segmentation, so it works for
// Chinese and English alike.
//
// For a text t (bare form: width folded, whitespace and punctuation removed,
// Latin lower-cased, digit runs folded to "0") G(t) is the set of its
// character n-grams for n in grams (default 2 and 3). With N passages and
// df(g) the number of passages that contain g:
//
//	idf(g)   = ln((1 + N) / (1 + df(g))) + 1
//	sim(q,p) = Σ_{g ∈ G(q) ∩ G(p)} idf(g)² / Σ_{g ∈ G(q)} idf(g)²
//
// sim lies in [0, 1]: 1 when every n-gram of the question occurs in the
// passage, 0 when none does. Two choices make it fit the audit's question —
// "does the corpus hold what this question asks?" (seed 002 拒答题要审计):
//
//   - coverage, not cosine: a passage is not penalised for what else it
//     says. A cosine divides by the passage's own length, so a parameter
//     table or a patent example that answers the question (seed 002's R12:
//     料筒温度 180/220/240/250℃) scores below a short clause that merely
//     shares legal phrasing;
//   - idf squared: sharing a term found in one passage (料筒温度) weighs far
//     more than sharing phrasing found in dozens (生产经营单位, 安全生产).
//
// Question n-grams the corpus never uses (df = 0) take the largest idf, so
// words absent from the corpus lower the similarity. The scale is not the
// scale of an embedding cosine (seed 002's 0.65); see DefaultOptions.
type lexIndex struct {
	grams    []int
	vocab    map[uint64]int32 // n-gram hash → term id
	df       []int32
	postings [][]int32 // term id → passages holding it, ascending
	n        int
}

// termSet is the set of n-grams of text as 64-bit FNV-1a hashes of their
// runes, ascending (a hash collision between two n-grams of one corpus is
// vanishingly unlikely at 2⁶⁴, and costs at most a sliver of similarity).
// Hashes instead of strings keep a large, varied corpus's index small.
func termSet(text string, grams []int) []uint64 {
	rs := foldDigits(bare(text, true))
	set := map[uint64]struct{}{}
	add := func(g []rune) {
		h := uint64(14695981039346656037)
		for _, r := range g {
			for k := 0; k < 4; k++ {
				h ^= uint64(byte(r >> (8 * k)))
				h *= 1099511628211
			}
		}
		set[h] = struct{}{}
	}
	for _, n := range grams {
		if n <= 0 {
			continue
		}
		if len(rs) < n {
			if len(rs) > 0 && n == grams[0] {
				add(rs)
			}
			continue
		}
		for i := 0; i+n <= len(rs); i++ {
			add(rs[i : i+n])
		}
	}
	return slices.Sorted(maps.Keys(set))
}

func newLexIndex(passages []string, grams []int) *lexIndex {
	ix := &lexIndex{grams: grams, vocab: map[uint64]int32{}, n: len(passages)}
	for i, p := range passages {
		// terms in hash order, so term ids are the same on every run
		for _, g := range termSet(p, grams) {
			id, ok := ix.vocab[g]
			if !ok {
				id = int32(len(ix.df))
				ix.vocab[g] = id
				ix.df = append(ix.df, 0)
				ix.postings = append(ix.postings, nil)
			}
			ix.df[id]++
			ix.postings[id] = append(ix.postings[id], int32(i))
		}
	}
	return ix
}

func (ix *lexIndex) idf(df int32) float64 {
	return fmath.Log(float64(1+ix.n)/float64(1+df)) + 1
}

// best returns the passage that covers most of q and that share; -1 when
// the corpus is empty or q shares no n-gram with it. Ties go to the lower
// index (the earlier passage in load order).
func (ix *lexIndex) best(q string) (int, float64) {
	bi, bs := -1, 0.0
	for d, s := range ix.scores(q) {
		if s > bs || (s == bs && bi >= 0 && int(d) < bi) {
			bi, bs = int(d), s
		}
	}
	return bi, bs
}

// scores returns sim(q, p) for every passage p sharing an n-gram with q.
func (ix *lexIndex) scores(q string) map[int32]float64 {
	var total float64
	acc := map[int32]float64{}
	for _, g := range termSet(q, ix.grams) { // hash order: the sums are the same on every run
		id, ok := ix.vocab[g]
		df := int32(0)
		if ok {
			df = ix.df[id]
		}
		w := ix.idf(df)
		w *= w
		total += w
		if ok {
			for _, d := range ix.postings[id] {
				acc[d] += w
			}
		}
	}
	if total == 0 {
		return map[int32]float64{}
	}
	for d, s := range acc {
		acc[d] = min(s/total, 1)
	}
	return acc
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

package audit

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"eval752/app/fmath"
)

// The review queue (seed 002 拒答题要审计: "相似度低于阈值的也可能漏"; "阈值只用
// 来缩小人工范围"): every refuse / unanswerable question, ranked by a fusion of
// signals that each catch a different way a question can be answerable by a
// passage that words the topic differently. A reviewer reads from the top;
// the queue says how far down the flagged questions reach.
//
// Signals of a question q and a passage p, each in [0, 1]:
//
//	ngram(q,p)  the similarity of the threshold (lexIndex): idf²-weighted
//	            coverage of q's character 2/3-grams by p
//	bm25(q,p)   word-level Okapi BM25 over words() terms, k1 = 1.2, b = 0.75,
//	            idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5)), divided by its bound
//	            Σ_{t ∈ q} idf(t)·(k1 + 1) (each distinct term of q once)
//	rare(q,p)   of q's terms the corpus holds rarely, R(q) = {t : 1 ≤ df(t) ≤
//	            max(2, ⌈N/10⌉)}, the idf-weighted share p contains:
//	            Σ_{t ∈ R(q) ∩ p} idf(t) / Σ_{t ∈ R(q)} idf(t)   (0 if R(q) = ∅)
//	values(q,p) cue(q) · min(1, v(p)/3) · bm25(q,p):
//	            cue(q) = 1 when q asks for parameters or values (valueCues),
//	            v(p) = countValues(p), the numbers with units in p
//
// Each signal ranks q by its best passage, S_s(q) = max_p s(q,p) (rank 1 =
// highest; ties share the smallest rank). The queue orders questions by
// reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009):
//
//	fused(q) = Σ_s 1 / (60 + rank_s(q))
//
// equal fused scores keeping the similarity ranking's order. A passage's
// own rank for q is the same fusion over the union of each signal's 30 best
// passages for q, and the queue shows q's three best with every signal's
// score.
//
// Why these: ngram misses a question that shares few character strings with
// the passage (seed 002's R12 asks for 「注塑工艺参数」, the passage lists
// 料筒温度 180/220/240/250℃); bm25 rewards the same few shared words without
// the ngram signal's penalty for every question n-gram the corpus never uses;
// rare looks only at the terms the corpus knows and that pick out few
// passages, so the paraphrased rest of the question costs nothing; values
// catches a question that asks for values when its most relevant passages
// are full of them. Fusing ranks, not scores, needs no common scale.

// Signal names, in report order.
var queueSignals = []string{"ngram", "bm25", "rare", "values"}

const (
	bm25K1      = 1.2
	bm25B       = 0.75
	rrfK        = 60
	valuesFull  = 3  // numbers with units at which values(p) reaches 1
	queueShown  = 3  // passages shown per question
	queuePool   = 30 // each signal's best passages considered for them
	rareDivisor = 10
)

// reviewQueueConfig states the queue's fixed parameters in the report's
// configuration block.
var reviewQueueConfig = fmt.Sprintf("signals ngram, bm25 (k1=%g, b=%g), rare (1 ≤ df ≤ max(2, ⌈N/%d⌉)), values (full at %d numbers with units); reciprocal rank fusion k=%d; %d passages shown from each signal's %d best",
	bm25K1, bm25B, rareDivisor, valuesFull, rrfK, queueShown, queuePool)

// wordIndex is the BM25 / rare-term index over the passages.
type wordIndex struct {
	n        int
	avgLen   float64
	lens     []int
	values   []int // countValues per passage
	df       map[string]int
	postings map[string][]posting
}

type posting struct {
	doc int32
	tf  int32
}

func newWordIndex(texts []string) *wordIndex {
	ix := &wordIndex{n: len(texts), lens: make([]int, len(texts)), values: make([]int, len(texts)), df: map[string]int{}, postings: map[string][]posting{}}
	total := 0
	for i, t := range texts {
		ws := words(t)
		ix.lens[i] = len(ws)
		ix.values[i] = countValues(t)
		total += len(ws)
		tf := map[string]int32{}
		for _, w := range ws {
			tf[w]++
		}
		// any term order: each posting list grows in passage order
		for w, n := range tf {
			ix.df[w]++
			ix.postings[w] = append(ix.postings[w], posting{int32(i), n})
		}
	}
	if len(texts) > 0 {
		ix.avgLen = float64(total) / float64(len(texts))
	}
	return ix
}

func (ix *wordIndex) idf(df int) float64 {
	return fmath.Log(1 + (float64(ix.n)-float64(df)+0.5)/(float64(df)+0.5))
}

// signals holds one question's per-passage scores (passages with any score).
type signals struct {
	ngram, bm25, rare, values map[int32]float64
}

func (s signals) get(name string) map[int32]float64 {
	switch name {
	case "ngram":
		return s.ngram
	case "bm25":
		return s.bm25
	case "rare":
		return s.rare
	}
	return s.values
}

// score computes every signal of q against the passages it touches.
func scoreQuestion(q string, lex *lexIndex, wx *wordIndex) signals {
	s := signals{ngram: lex.scores(q), bm25: map[int32]float64{}, rare: map[int32]float64{}, values: map[int32]float64{}}
	qs := slices.Sorted(maps.Keys(setOf(words(q))))
	rareMax := max(2, (wx.n+rareDivisor-1)/rareDivisor)
	var bound, rareTotal float64
	for _, t := range qs {
		df := wx.df[t]
		w := wx.idf(df)
		bound += w * (bm25K1 + 1)
		rare := df >= 1 && df <= rareMax
		if rare {
			rareTotal += w
		}
		for _, p := range wx.postings[t] {
			tf := float64(p.tf)
			norm := bm25K1 * (1 - bm25B + bm25B*float64(wx.lens[p.doc])/wx.avgLen)
			s.bm25[p.doc] += w * tf * (bm25K1 + 1) / (tf + norm)
			if rare {
				s.rare[p.doc] += w
			}
		}
	}
	for d := range s.bm25 {
		s.bm25[d] /= bound
	}
	if rareTotal > 0 {
		for d := range s.rare {
			s.rare[d] /= rareTotal
		}
	} else {
		clear(s.rare)
	}
	if asksForValues(q) {
		for d, v := range s.bm25 {
			if u := min(1, float64(wx.values[d])/valuesFull); u > 0 {
				s.values[d] = u * v
			}
		}
	}
	return s
}

func setOf(ws []string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// competitionRanks ranks scores descending: equal scores share the smallest
// rank ("1224"). Index order of the result follows scores.
func competitionRanks(scores []float64) []int {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	ranks := make([]int, len(scores))
	for k, i := range idx {
		if k > 0 && scores[i] == scores[idx[k-1]] {
			ranks[i] = ranks[idx[k-1]]
		} else {
			ranks[i] = k + 1
		}
	}
	return ranks
}

// rrf fuses per-signal scores (one slice per signal, same length) into
// Σ_s 1/(rrfK + rank_s).
func rrf(perSignal [][]float64) []float64 {
	if len(perSignal) == 0 {
		return nil
	}
	out := make([]float64, len(perSignal[0]))
	for _, sc := range perSignal {
		for i, r := range competitionRanks(sc) {
			out[i] += 1 / float64(rrfK+r)
		}
	}
	return out
}

// passageScore is one passage of a question with every signal's score.
type passageScore struct {
	Index  int
	Scores [4]float64 // queueSignals order
	Fused  float64
}

// topPassages returns the passages of s fused over the signals, best first
// (ties: load order), at most k of them. The candidates are the union of
// each signal's queuePool best passages (ties: load order), so a large
// corpus costs a bounded sort per question; ranks are taken within that
// union.
func topPassages(s signals, k int) []passageScore {
	cand := map[int32]bool{}
	for _, name := range queueSignals {
		for _, d := range bestDocs(s.get(name), queuePool) {
			cand[d] = true
		}
	}
	docs := slices.Sorted(maps.Keys(cand))
	if len(docs) == 0 {
		return nil
	}
	per := make([][]float64, len(queueSignals))
	out := make([]passageScore, len(docs))
	for j, name := range queueSignals {
		m := s.get(name)
		per[j] = make([]float64, len(docs))
		for i, d := range docs {
			per[j][i] = m[d]
			out[i].Scores[j] = m[d]
		}
	}
	for i, f := range rrf(per) {
		out[i].Index, out[i].Fused = int(docs[i]), f
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Fused > out[b].Fused })
	return out[:min(k, len(out))]
}

// bestDocs returns the n passages of m with the highest scores (ties: the
// lower index), in no particular order; scores of 0 are left out.
func bestDocs(m map[int32]float64, n int) []int32 {
	better := func(a, b int32) bool { return m[a] > m[b] || m[a] == m[b] && a < b }
	var top []int32 // kept sorted best first, at most n
	for d, v := range m {
		if v <= 0 {
			continue
		}
		if len(top) == n && !better(d, top[n-1]) {
			continue
		}
		i := sort.Search(len(top), func(i int) bool { return better(d, top[i]) })
		if len(top) < n {
			top = append(top, 0)
		}
		copy(top[i+1:], top[i:len(top)-1])
		top[i] = d
	}
	return top
}

// bestOf is max over the passages of one signal (0 when none).
func bestOf(m map[int32]float64) float64 {
	b := 0.0
	for _, v := range m {
		b = max(b, v)
	}
	return b
}

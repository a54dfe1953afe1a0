package trec

import "math"

// atCutoffs walks the ranking once and calls value(relSoFar, k) for each
// cutoff k, where relSoFar counts relevant docs in the top k (k may exceed
// the number retrieved: the missing docs count as non-relevant). This is the
// loop shared by trec_eval's P, recall, success, relative_P and unj code.
func atCutoffs(q *query, in *instance, out []float64, value func(relSoFar, k int64) float64) {
	ci := 0
	var relSoFar int64
	for i := 0; i < len(q.rels) && ci < len(in.longs); i++ {
		for ci < len(in.longs) && int64(i) == in.longs[ci] {
			out[in.off+ci] = value(relSoFar, in.longs[ci])
			ci++
		}
		if q.isRel(i) {
			relSoFar++
		}
	}
	for ; ci < len(in.longs); ci++ {
		out[in.off+ci] = value(relSoFar, in.longs[ci])
	}
}

// recallCutoffs turns recall fractions into numbers of relevant docs with
// trec_eval v10's rule lround(p·R) (m_iprec_at_recall.c, m_11pt_avg.c; v9
// used (long)(p·R+0.9)).
func recallCutoffs(pcts []float64, numRel int64) []int64 {
	cut := make([]int64, len(pcts))
	for i, p := range pcts {
		cut[i] = int64(math.Round(p * float64(numRel)))
	}
	return cut
}

// interpolatedPrecision calls emit(c, p) for every recall cutoff c with the
// interpolated precision p = max precision at any rank at or below the point
// where the cutoff's number of relevant docs is reached. Walking the ranking
// backwards keeps the running maximum (m_iprec_at_recall.c). Cutoffs above
// num_rel_ret are never emitted (their value stays 0).
func interpolatedPrecision(q *query, cutoffs []int64, emit func(c int, p float64)) {
	cur := len(cutoffs) - 1
	for cur >= 0 && cutoffs[cur] > q.numRelRet {
		cur--
	}
	precis := float64(q.numRelRet) / float64(q.numRet) // 0/0 = NaN, as in C
	intPrecis := precis
	relSoFar := q.numRelRet
	for i := q.numRet; i > 0 && relSoFar > 0; i-- {
		precis = float64(relSoFar) / float64(i)
		if intPrecis < precis {
			intPrecis = precis
		}
		if q.isRel(int(i - 1)) {
			for cur >= 0 && relSoFar == cutoffs[cur] {
				emit(cur, intPrecis)
				cur--
			}
			relSoFar--
		}
	}
	for ; cur >= 0; cur-- {
		emit(cur, intPrecis)
	}
}

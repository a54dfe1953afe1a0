package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"hash/fnv"
	"sort"
)

// Near-duplicate detection (seed 003 §3.3): MinHash signatures over
// character shingles estimate the Jaccard similarity of two texts' shingle
// sets,
//
//	J(A, B) = |A ∩ B| / |A ∪ B|  ≈  (1/k) · #{i : min h_i(A) = min h_i(B)}
//
// with k hash functions h_i(x) = splitmix64(fnv64a(x) ⊕ s_i), the seeds s_i
// drawn from a splitmix64 stream started at Options.Seed, so the same input
// gives the same pairs on every run. The standard error of the estimate is
// √(J(1−J)/k) (≈ 0.027 at J = 0.9 with k = 128). Candidate pairs come from
// LSH banding (bands of minhashRows rows); a candidate whose estimate is
// within verifyMargin of the threshold has its Jaccard computed exactly
// from the two shingle sets, and is reported when that reaches the
// threshold (the estimate alone would miss or invent pairs near it). Exact
// duplicates are found separately by SHA-256 of the bare text (width folded,
// whitespace and punctuation removed).

const minhashRows = 4

// verifyMargin is how far below the threshold a MinHash estimate may be for
// the pair to be checked exactly: about 4 standard errors at k = 128.
const verifyMargin = 0.12

// jaccard is |A ∩ B| / |A ∪ B| of two shingle sets.
func jaccard(a, b map[string]struct{}) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	in := 0
	for g := range a {
		if _, ok := b[g]; ok {
			in++
		}
	}
	union := len(a) + len(b) - in
	if union == 0 {
		return 0
	}
	return float64(in) / float64(union)
}

func splitmix64(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
	x = (x ^ (x >> 27)) * 0x94D049BB133111EB
	return x ^ (x >> 31)
}

type minhasher struct {
	k     int
	seeds []uint64
}

func newMinhasher(k int, seed uint64) *minhasher {
	if k < minhashRows {
		k = minhashRows
	}
	k -= k % minhashRows
	m := &minhasher{k: k, seeds: make([]uint64, k)}
	s := seed
	for i := range m.seeds {
		s = splitmix64(s)
		m.seeds[i] = s
	}
	return m
}

// signature returns the MinHash signature of the text's shingles of size
// shingle, or nil for a text with no characters.
func (m *minhasher) signature(text string, shingle int) []uint64 {
	grams := ngrams(bare(text, false), shingle)
	if len(grams) == 0 {
		return nil
	}
	sig := make([]uint64, m.k)
	for i := range sig {
		sig[i] = ^uint64(0)
	}
	for g := range grams {
		h := fnv.New64a()
		h.Write([]byte(g))
		x := h.Sum64()
		for i, s := range m.seeds {
			if v := splitmix64(x ^ s); v < sig[i] {
				sig[i] = v
			}
		}
	}
	return sig
}

func estimate(a, b []uint64) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	eq := 0
	for i := range a {
		if a[i] == b[i] {
			eq++
		}
	}
	return float64(eq) / float64(len(a))
}

// exactKey is the SHA-256 (hex) of the bare text: seed 003 §3.3's exact
// duplicate test on normalised text.
func exactKey(text string) string {
	sum := sha256.Sum256([]byte(string(bare(text, false))))
	return hex.EncodeToString(sum[:])
}

// simPair is a pair of records (indices into the caller's slice, i < j) and
// their similarity; Exact marks identical bare text.
type simPair struct {
	I, J  int
	Sim   float64
	Exact bool
}

// nearPairs returns the pairs (i < j) with identical bare text or with a
// Jaccard ≥ threshold (MinHash proposes, the exact shingle Jaccard decides)
// for which keep(i, j) is true, ordered by i then j. Texts without
// characters never pair.
//
// Records of one bare text form a group, compared once: a text copied a
// thousand times would otherwise cost a million comparisons and report a
// million pairs. Within a group, each record pairs with the first record
// (in index order) that keep allows; a near pair of two groups pairs each
// record of either group with the first record of the other that keep
// allows. Every record that has a counterpart is reported, with one pair.
func nearPairs(texts []string, shingle int, threshold float64, m *minhasher, keep func(i, j int) bool) []simPair {
	seen := map[[2]int]bool{}
	var out []simPair
	add := func(i, j int, sim float64, exact bool) bool {
		if i > j {
			i, j = j, i
		}
		k := [2]int{i, j}
		if seen[k] {
			return true
		}
		if i == j || !keep(i, j) {
			return false
		}
		seen[k] = true
		out = append(out, simPair{I: i, J: j, Sim: sim, Exact: exact})
		return true
	}
	// star pairs each record of xs with the first record of ys keep allows.
	star := func(xs, ys []int, sim float64, exact bool) {
		for _, x := range xs {
			for _, y := range ys {
				if add(x, y, sim, exact) {
					break
				}
			}
		}
	}
	// Groups of identical bare text, in order of their first record; exact
	// pairs first, so that an exact pair is reported as exact.
	byKey := map[string]int{}
	var groups [][]int
	for i, t := range texts {
		if len(bare(t, false)) == 0 {
			continue
		}
		k := exactKey(t)
		g, ok := byKey[k]
		if !ok {
			g = len(groups)
			byKey[k] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	for _, g := range groups {
		star(g, g, 1, true)
	}
	// Near pairs between the groups' first records (their texts stand for
	// the group's).
	sigs := make([][]uint64, len(groups))
	for g, idx := range groups {
		sigs[g] = m.signature(texts[idx[0]], shingle)
	}
	sets := map[int]map[string]struct{}{}
	set := func(g int) map[string]struct{} {
		if s, ok := sets[g]; ok {
			return s
		}
		s := ngrams(bare(texts[groups[g][0]], false), shingle)
		sets[g] = s
		return s
	}
	checked := map[[2]int]bool{}
	bands := m.k / minhashRows
	for b := 0; b < bands; b++ {
		buckets := map[[minhashRows]uint64][]int{}
		for g, s := range sigs {
			if s == nil {
				continue
			}
			var key [minhashRows]uint64
			copy(key[:], s[b*minhashRows:(b+1)*minhashRows])
			buckets[key] = append(buckets[key], g)
		}
		for _, gs := range buckets {
			for a := 0; a < len(gs); a++ {
				for c := a + 1; c < len(gs); c++ {
					gi, gj := gs[a], gs[c]
					if checked[[2]int{gi, gj}] {
						continue
					}
					checked[[2]int{gi, gj}] = true
					if estimate(sigs[gi], sigs[gj]) < threshold-verifyMargin {
						continue
					}
					if jac := jaccard(set(gi), set(gj)); jac >= threshold {
						star(groups[gj], groups[gi], jac, false)
						star(groups[gi], groups[gj], jac, false)
					}
				}
			}
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].I != out[b].I {
			return out[a].I < out[b].I
		}
		return out[a].J < out[b].J
	})
	return out
}

package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"unicode/utf8"
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
	rs := bare(text, false)
	if len(rs) == 0 || shingle <= 0 {
		return nil
	}
	n := min(shingle, len(rs))
	sig := make([]uint64, m.k)
	for i := range sig {
		sig[i] = ^uint64(0)
	}
	// every window's gram, hashed as the FNV-1a of its UTF-8 bytes (a gram
	// seen twice gives the same minimums, so no set is built)
	var buf []byte
	for i := 0; i+n <= len(rs); i++ {
		buf = buf[:0]
		for _, r := range rs[i : i+n] {
			buf = utf8.AppendRune(buf, r)
		}
		x := uint64(14695981039346656037)
		for _, c := range buf {
			x ^= uint64(c)
			x *= 1099511628211
		}
		for k, s := range m.seeds {
			if v := splitmix64(x ^ s); v < sig[k] {
				sig[k] = v
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

// Candidate checks are bounded so that the work is linear in the number of
// records whatever the texts: a band bucket of at most bucketCap groups has
// every pair of groups of different classes (splits) checked; a larger
// bucket — texts of one template share band keys by the thousand — is
// ordered by the next band's key (texts that agree there too come together)
// and each group is checked against the next bucketWindow groups of another
// class in that order. A near pair of a capped bucket is still found when
// any other band puts it in a small bucket or within the window; the number
// of capped buckets is returned so the report can say it.
const (
	bucketCap    = 16
	bucketWindow = 4
)

// nearPairs returns the pairs (i < j) with identical bare text or with a
// Jaccard ≥ threshold (MinHash proposes, the exact shingle Jaccard decides)
// for which keep(i, j) is true, ordered by i then j. Texts without
// characters never pair. class, when not nil, is each record's class (its
// split): only records of different classes are compared, and keep sees
// only such pairs; nil compares every pair.
//
// Records of one bare text form a group, compared once: a text copied a
// thousand times would otherwise cost a million comparisons and report a
// million pairs. Within a group, each record pairs with the first record
// (in index order) of another class that keep allows; a near pair of two
// groups pairs each record of either group with the first record of the
// other that keep allows. Every record that has a counterpart is reported,
// with one pair per group it is near to. capped counts the band buckets
// whose pairs were not all checked (see bucketCap).
func nearPairs(texts, class []string, shingle int, threshold float64, m *minhasher, keep func(i, j int) bool) (out []simPair, capped int) {
	cls := func(i int) string {
		if class == nil {
			return ""
		}
		return class[i]
	}
	differ := func(i, j int) bool { return class == nil || class[i] != class[j] }
	seen := map[[2]int]bool{}
	add := func(i, j int, sim float64, exact bool) bool {
		if i > j {
			i, j = j, i
		}
		k := [2]int{i, j}
		if seen[k] {
			return true
		}
		if i == j || !differ(i, j) || !keep(i, j) {
			return false
		}
		seen[k] = true
		out = append(out, simPair{I: i, J: j, Sim: sim, Exact: exact})
		return true
	}
	// Groups of identical bare text, in order of their first record; exact
	// pairs first, so that an exact pair is reported as exact.
	byKey := map[string]int{}
	var groups [][]int
	keys := make([]string, len(texts)) // "" for a text without characters
	parallelFor(len(texts), func(i int) {
		if len(bare(texts[i], false)) > 0 {
			keys[i] = exactKey(texts[i])
		}
	})
	for i := range texts {
		k := keys[i]
		if k == "" {
			continue
		}
		g, ok := byKey[k]
		if !ok {
			g = len(groups)
			byKey[k] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	// firsts[g] lists the first record of each class of group g, in index
	// order: a record of a group tries those of other classes first, so a
	// group of one class costs nothing and a group of two costs one check
	// per record (not one per pair).
	firsts := make([][]int, len(groups))
	for g, idx := range groups {
		has := map[string]bool{}
		for _, i := range idx {
			if c := cls(i); !has[c] || class == nil {
				has[c] = true
				firsts[g] = append(firsts[g], i)
			}
			if class == nil && len(firsts[g]) >= bucketCap {
				break
			}
		}
	}
	// star pairs each record of group xs with the first record of group ys
	// keep allows: the first of each other class, then (keep refused
	// those) up to bucketCap more records of ys.
	star := func(xs, ys int, sim float64, exact bool) {
		for _, x := range groups[xs] {
			done := false
			for _, y := range firsts[ys] {
				if differ(x, y) && add(x, y, sim, exact) {
					done = true
					break
				}
			}
			for n, y := range groups[ys] {
				if done || n >= bucketCap {
					break
				}
				done = differ(x, y) && add(x, y, sim, exact)
			}
		}
	}
	// gcls is a group's class: its records' one class, or mixed.
	const mixed = "\x00mixed"
	gcls := make([]string, len(groups))
	for g, idx := range groups {
		gcls[g] = cls(idx[0])
		if len(firsts[g]) > 1 && class != nil {
			gcls[g] = mixed
		}
	}
	crossGroups := func(a, b int) bool {
		return class == nil || gcls[a] == mixed || gcls[b] == mixed || gcls[a] != gcls[b]
	}
	for g := range groups {
		if gcls[g] == mixed || class == nil {
			star(g, g, 1, true)
		}
	}
	// Near pairs between the groups' first records (their texts stand for
	// the group's).
	sigs := make([][]uint64, len(groups))
	parallelFor(len(groups), func(g int) { sigs[g] = m.signature(texts[groups[g][0]], shingle) })
	sets := map[int]map[string]struct{}{}
	set := func(g int) map[string]struct{} {
		if s, ok := sets[g]; ok {
			return s
		}
		s := ngrams(bare(texts[groups[g][0]], false), shingle)
		sets[g] = s
		return s
	}
	need := int(math.Ceil((threshold - verifyMargin) * float64(m.k)))
	// candidate pairs of groups (their signatures agree enough) are found
	// band by band, bands in parallel (reading sigs only); they are then
	// verified in band order. The pairs found do not depend on the order
	// of the checks (a record pair belongs to one pair of groups, whose
	// Jaccard is exact), so any order gives the same result.
	verified := map[[2]int]bool{}
	check := func(gi, gj int) {
		k := [2]int{gi, gj}
		if verified[k] {
			return
		}
		verified[k] = true
		if jac := jaccard(set(gi), set(gj)); jac >= threshold {
			star(gj, gi, jac, false)
			star(gi, gj, jac, false)
		}
	}
	bands := m.k / minhashRows
	cands := make([][][2]int32, bands)
	bandCapped := make([]int, bands)
	candidate := func(b, gi, gj int) {
		if gi > gj {
			gi, gj = gj, gi
		}
		if crossGroups(gi, gj) && agreeAtLeast(sigs[gi], sigs[gj], need) {
			cands[b] = append(cands[b], [2]int32{int32(gi), int32(gj)})
		}
	}
	parallelFor(bands, func(b int) {
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
			if len(gs) <= bucketCap {
				for a := 0; a < len(gs); a++ {
					for c := a + 1; c < len(gs); c++ {
						candidate(b, gs[a], gs[c])
					}
				}
				continue
			}
			bandCapped[b]++
			nb := ((b + 1) % bands) * minhashRows
			sort.Slice(gs, func(x, y int) bool {
				sx, sy := sigs[gs[x]][nb:nb+minhashRows], sigs[gs[y]][nb:nb+minhashRows]
				for r := range sx {
					if sx[r] != sy[r] {
						return sx[r] < sy[r]
					}
				}
				return gs[x] < gs[y]
			})
			for a := range gs {
				for c, n := a+1, 0; c < len(gs) && n < bucketWindow; c++ {
					if crossGroups(gs[a], gs[c]) {
						n++
						candidate(b, gs[a], gs[c])
					}
				}
			}
		}
	})
	for b := range bands {
		capped += bandCapped[b]
		for _, c := range cands[b] {
			check(int(c[0]), int(c[1]))
		}
		cands[b] = nil
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].I != out[b].I {
			return out[a].I < out[b].I
		}
		return out[a].J < out[b].J
	})
	return out, capped
}

// parallelFor calls fn(i) for every i in [0, n), on one goroutine per core
// (each i once; fn must only write what belongs to i). A panic of fn is
// raised again on the caller's goroutine, where the panic net sees it.
func parallelFor(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	chunk := max(1, min(256, n/(8*workers)))
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed any
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					mu.Lock()
					if failed == nil {
						failed = p
					}
					mu.Unlock()
					next.Store(int64(n)) // the others stop too
				}
			}()
			for {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= n {
					return
				}
				for i := lo; i < min(lo+chunk, n); i++ {
					fn(i)
				}
			}
		}()
	}
	wg.Wait()
	if failed != nil {
		panic(failed)
	}
}

// agreeAtLeast reports whether signatures a and b agree in at least need
// positions (estimate(a, b) ≥ need/k), stopping as soon as that is
// decided.
func agreeAtLeast(a, b []uint64, need int) bool {
	if len(a) == 0 || len(a) != len(b) {
		return false
	}
	miss := len(a) - need
	for i := range a {
		if a[i] != b[i] {
			if miss--; miss < 0 {
				return false
			}
		}
	}
	return true
}

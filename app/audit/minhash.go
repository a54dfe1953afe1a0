package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Near-duplicate detection (seed 003 §3.3): a near copy is a pair whose
// character-shingle sets have a Jaccard similarity
//
//	J(A, B) = |A ∩ B| / |A ∪ B|
//
// at or above the threshold, J computed exactly from the two shingle sets.
// MinHash only proposes the candidate pairs. The sketch is one-permutation
// MinHash with optimal densification (Li, Owen & Zhang 2012; Shrivastava
// 2017): every shingle is hashed once, h(x) = splitmix64(fnv64a(x) ⊕ s), the
// hash picks one of k bins (⌊h·k / 2⁶⁴⌋) and each bin keeps its smallest
// hash; an empty bin i (a text with fewer shingles than bins) borrows the
// value of the first non-empty bin on a probe sequence that depends only on
// (i, attempt) and the seed, so two texts' bins stay comparable. Of each
// bin only the lowest 8 bits are kept (b-bit MinHash, Li & König 2010):
// k bytes a text. Two texts' bins agree with probability
//
//	P = J′ + (1 − J′)/256,   J′ ≈ J
//
// (J′ the one-permutation collision probability, 1/256 the chance that two
// different minimums share their low byte). Candidates come from LSH
// banding — bands of minhashRows bins, i.e. a 32-bit key — grouped by
// sorting (band key, group) pairs, one band at a time; a candidate whose
// bins agree at least as often as at J = threshold − verifyMargin has its
// Jaccard computed exactly and is reported when that reaches the threshold.
// Exact duplicates are found separately by SHA-256 of the bare text (width
// folded, whitespace and punctuation removed). Seeds come from a splitmix64
// stream started at Options.Seed, so the same input gives the same pairs on
// every run.

const minhashRows = 4

// verifyMargin is how far below the threshold a pair's estimated Jaccard
// may be for the pair to be checked exactly. A question of 60 characters
// has about 60 3-shingles for k = 128 bins, so the estimate has about 60
// independent draws: standard error √(J(1−J)/60) ≈ 0.052 at J = 0.8; the
// margin is about 3 of them (the property test TestNearPairsRecall checks
// the recall against brute force).
const verifyMargin = 0.15

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

// minhasher holds the sketch's parameters: k bins (a multiple of
// minhashRows), the shingle hash's seed and the densification probes' seed.
type minhasher struct {
	k            int
	seed, probes uint64
}

func newMinhasher(k int, seed uint64) *minhasher {
	if k < minhashRows {
		k = minhashRows
	}
	k -= k % minhashRows
	s := splitmix64(seed)
	return &minhasher{k: k, seed: s, probes: splitmix64(s)}
}

// bin maps a 64-bit hash to [0, k) by its high bits (⌊h·k / 2⁶⁴⌋).
func (m *minhasher) bin(h uint64) int {
	hi, _ := bits.Mul64(h, uint64(m.k))
	return int(hi)
}

// sketchBuf is one worker's scratch: the bare runes, a gram's bytes and the
// bins' minimums.
type sketchBuf struct {
	rs   []rune
	buf  []byte
	mins []uint64
}

var sketchPool = sync.Pool{New: func() any { return &sketchBuf{} }}

const emptyBin = ^uint64(0)

// sketch writes the b-bit one-permutation MinHash of rs's shingles of size
// shingle into out (k bytes). rs must not be empty.
func (m *minhasher) sketch(rs []rune, shingle int, sb *sketchBuf, out []uint8) {
	n := min(shingle, len(rs))
	mins := sb.mins[:0]
	for range m.k {
		mins = append(mins, emptyBin)
	}
	sb.mins = mins
	filled := 0
	// every window's gram, hashed as the FNV-1a of its UTF-8 bytes (a gram
	// seen twice gives the same minimum, so no set is built)
	for i := 0; i+n <= len(rs); i++ {
		buf := sb.buf[:0]
		for _, r := range rs[i : i+n] {
			buf = utf8.AppendRune(buf, r)
		}
		sb.buf = buf
		x := uint64(14695981039346656037)
		for _, c := range buf {
			x ^= uint64(c)
			x *= 1099511628211
		}
		h := splitmix64(x ^ m.seed)
		if h == emptyBin {
			h-- // keep the marker unambiguous (one hash in 2⁶⁴)
		}
		b := m.bin(h)
		if mins[b] == emptyBin {
			filled++
		}
		mins[b] = min(mins[b], h)
	}
	for i, v := range mins {
		if v == emptyBin {
			v = mins[m.borrow(i, mins, filled)]
		}
		out[i] = uint8(v)
	}
}

// borrow returns the non-empty bin whose value empty bin i takes: the first
// non-empty one of the probes splitmix64(probes ⊕ i·2³² ⊕ attempt),
// attempt = 1, 2, …; after 64·k attempts (expected: k / filled) the next
// non-empty bin after i, so it always ends.
func (m *minhasher) borrow(i int, mins []uint64, filled int) int {
	if filled > 0 {
		for a := uint64(1); a <= uint64(64*m.k); a++ {
			if j := m.bin(splitmix64(m.probes ^ uint64(i)<<32 ^ a)); mins[j] != emptyBin {
				return j
			}
		}
	}
	for d := 1; d < len(mins); d++ {
		if j := (i + d) % len(mins); mins[j] != emptyBin {
			return j
		}
	}
	return i
}

// signature returns the sketch of the text's shingles of size shingle, or
// nil for a text with no characters.
func (m *minhasher) signature(text string, shingle int) []uint8 {
	rs := bare(text, false)
	if len(rs) == 0 || shingle <= 0 {
		return nil
	}
	out := make([]uint8, m.k)
	m.sketch(rs, shingle, &sketchBuf{}, out)
	return out
}

// estimate is the Jaccard estimate of two sketches: the share of agreeing
// bins with the chance agreement of 8-bit values removed, (P − 1/256) /
// (1 − 1/256), at least 0.
func estimate(a, b []uint8) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	eq := 0
	for i := range a {
		if a[i] == b[i] {
			eq++
		}
	}
	p := float64(eq) / float64(len(a))
	return max(0, (p-1.0/256)/(1-1.0/256))
}

// needAgree is the number of agreeing bins (of k) at estimated Jaccard j.
func needAgree(j float64, k int) int {
	j = max(0, j)
	return int(math.Ceil((j + (1-j)/256) * float64(k)))
}

// exactKey is the SHA-256 of the bare text: seed 003 §3.3's exact duplicate
// test on normalised text.
func exactKey(text string) [sha256.Size]byte {
	return sha256.Sum256([]byte(string(bare(text, false))))
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
//
// Memory: k bytes of sketch, 32 bytes of SHA-256 and a few indices a
// record, plus one band's sorted keys per core — no map of n entries.
func nearPairs(texts, class []string, shingle int, threshold float64, m *minhasher, keep func(i, j int) bool) (out []simPair, capped int) {
	// cid is each record's class as a small number (0 for class == nil).
	cid := make([]int32, len(texts))
	if class != nil {
		ids := map[string]int32{}
		for i, c := range class {
			id, ok := ids[c]
			if !ok {
				id = int32(len(ids))
				ids[c] = id
			}
			cid[i] = id
		}
	}
	differ := func(i, j int) bool { return class == nil || cid[i] != cid[j] }
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

	// One pass over the texts (one goroutine per core): each record's
	// SHA-256 of the bare text and its sketch (texts without characters:
	// none).
	k := m.k
	sums := make([][sha256.Size]byte, len(texts))
	sigs := make([]uint8, len(texts)*k)
	has := make([]bool, len(texts))
	parallelFor(len(texts), func(i int) {
		sb := sketchPool.Get().(*sketchBuf)
		defer sketchPool.Put(sb)
		sb.rs = appendBare(sb.rs[:0], texts[i], false)
		if len(sb.rs) == 0 {
			return
		}
		has[i] = true
		sb.buf = sb.buf[:0]
		for _, r := range sb.rs {
			sb.buf = utf8.AppendRune(sb.buf, r)
		}
		sums[i] = sha256.Sum256(sb.buf)
		if shingle > 0 {
			m.sketch(sb.rs, shingle, sb, sigs[i*k:(i+1)*k])
		}
	})

	// Groups of identical bare text, by sorting the records on their
	// SHA-256 (then index), numbered in order of their first record:
	// members[start[g]:start[g+1]] are group g's records, ascending.
	var recs []int32
	for i := range texts {
		if has[i] {
			recs = append(recs, int32(i))
		}
	}
	slices.SortFunc(recs, func(a, b int32) int {
		if c := bytes.Compare(sums[a][:], sums[b][:]); c != 0 {
			return c
		}
		return int(a - b)
	})
	var runs [][2]int32 // a group's records: recs[lo:hi]
	for lo := 0; lo < len(recs); {
		hi := lo + 1
		for hi < len(recs) && sums[recs[hi]] == sums[recs[lo]] {
			hi++
		}
		runs = append(runs, [2]int32{int32(lo), int32(hi)})
		lo = hi
	}
	sums = nil
	slices.SortFunc(runs, func(x, y [2]int32) int { return int(recs[x[0]] - recs[y[0]]) })
	members := make([]int32, 0, len(recs))
	start := make([]int32, 0, len(runs)+1)
	for _, r := range runs {
		start = append(start, int32(len(members)))
		members = append(members, recs[r[0]:r[1]]...)
	}
	start = append(start, int32(len(members)))
	recs, runs = nil, nil
	ngroups := len(start) - 1
	group := func(g int) []int32 { return members[start[g]:start[g+1]] }
	// firsts(g) lists the first record of each class of group g, in index
	// order (class == nil: its first bucketCap records): a record of a
	// group tries those of other classes first, so a group of one class
	// costs nothing and a group of two costs one check per record (not
	// one per pair). Kept for groups of several records only.
	multi := map[int32][]int32{}
	// gcls is a group's class: its records' one class, or mixed (-1).
	const mixed = -1
	gcls := make([]int32, ngroups)
	for g := range ngroups {
		idx := group(g)
		gcls[g] = cid[idx[0]]
		if len(idx) == 1 {
			continue
		}
		var fs []int32
		seenCls := map[int32]bool{}
		for _, i := range idx {
			if c := cid[i]; !seenCls[c] || class == nil {
				seenCls[c] = true
				fs = append(fs, i)
			}
			if class == nil && len(fs) >= bucketCap {
				break
			}
		}
		multi[int32(g)] = fs
		if len(seenCls) > 1 {
			gcls[g] = mixed
		}
	}
	firsts := func(g int) []int32 {
		if fs, ok := multi[int32(g)]; ok {
			return fs
		}
		return group(g)
	}
	// star pairs each record of group xs with the first record of group ys
	// keep allows: the first of each other class, then (keep refused
	// those) up to bucketCap more records of ys.
	star := func(xs, ys int, sim float64, exact bool) {
		for _, x := range group(xs) {
			done := false
			for _, y := range firsts(ys) {
				if differ(int(x), int(y)) && add(int(x), int(y), sim, exact) {
					done = true
					break
				}
			}
			for n, y := range group(ys) {
				if done || n >= bucketCap {
					break
				}
				done = differ(int(x), int(y)) && add(int(x), int(y), sim, exact)
			}
		}
	}
	// cross reports whether groups of classes ca and cb may pair
	cross := func(ca, cb int32) bool {
		return class == nil || ca == mixed || cb == mixed || ca != cb
	}
	// Exact pairs first, so that an exact pair is reported as exact.
	for g := range ngroups {
		if len(group(g)) > 1 && (gcls[g] == mixed || class == nil) {
			star(g, g, 1, true)
		}
	}

	// Near pairs between the groups' first records (their texts stand for
	// the group's). Candidate pairs of groups (their sketches agree
	// enough) are found band by band, bands in parallel (each sorts its
	// (band key, next band's key) pairs, reading sigs only), then merged,
	// de-duplicated and verified in (group, group) order. The pairs found
	// do not depend on the order of the checks (a record pair belongs to
	// one pair of groups, whose Jaccard is exact).
	sig := func(g int) []uint8 {
		i := int(members[start[g]])
		return sigs[i*k : (i+1)*k]
	}
	band := func(g, b int) uint64 {
		s := sig(g)[b*minhashRows:]
		return uint64(s[0])<<24 | uint64(s[1])<<16 | uint64(s[2])<<8 | uint64(s[3])
	}
	need := needAgree(threshold-verifyMargin, k)
	bands := k / minhashRows
	cands := make([][][2]int32, bands)
	bandCapped := make([]int, bands)
	if shingle <= 0 {
		bands = 0 // no sketches: exact copies only
	}
	parallelFor(bands, func(b int) {
		// candidate keeps groups gi and gj, of sketches si and sj, when
		// the sketches agree enough (the caller checked cross)
		candidate := func(gi, gj int32, si, sj []uint8) {
			if agreeAtLeast(si, sj, need) {
				cands[b] = append(cands[b], [2]int32{min(gi, gj), max(gi, gj)})
			}
		}
		nb := (b + 1) % bands
		bs := bandPool.Get().(*bandBuf)
		defer bandPool.Put(bs)
		keys, gs := bs.keys[:0], bs.gs[:0]
		for g := range ngroups {
			keys, gs = append(keys, band(g, b)<<32|band(g, nb)), append(gs, int32(g))
		}
		bs.tk, bs.tv = slices.Grow(bs.tk[:0], ngroups)[:ngroups], slices.Grow(bs.tv[:0], ngroups)[:ngroups]
		bs.keys, bs.gs = keys, gs
		keys, gs = radixSort(keys, gs, bs.tk, bs.tv)
		for lo := 0; lo < len(keys); {
			hi := lo + 1
			for hi < len(keys) && keys[hi]>>32 == keys[lo]>>32 {
				hi++
			}
			bucket := gs[lo:hi]
			lo = hi
			if len(bucket) <= bucketCap {
				for a := range bucket {
					for c := a + 1; c < len(bucket); c++ {
						gi, gj := bucket[a], bucket[c]
						if cross(gcls[gi], gcls[gj]) {
							candidate(gi, gj, sig(int(gi)), sig(int(gj)))
						}
					}
				}
				continue
			}
			// a capped bucket, ordered by the next band's key (then group).
			// Its groups are scattered over sigs (the order is the next
			// band's key), so block by block of capBlock records their
			// sketches and classes are first copied side by side (with
			// capSpill records after the block, for the window's reach);
			// a window reaching further reads sigs itself. The checks and
			// their order are those of candidate on the same pairs.
			bandCapped[b]++
			for blo := 0; blo < len(bucket); blo += capBlock {
				bhi := min(len(bucket), blo+capBlock)
				ghi := min(len(bucket), bhi+capSpill)
				w := bucket[blo:ghi]
				bs.sig = slices.Grow(bs.sig[:0], len(w)*k)[:len(w)*k]
				bs.cls = slices.Grow(bs.cls[:0], len(w))[:len(w)]
				for x, g := range w {
					copy(bs.sig[x*k:(x+1)*k], sig(int(g)))
					bs.cls[x] = gcls[g]
				}
				local := func(c int) ([]uint8, int32) {
					if c < ghi {
						x := c - blo
						return bs.sig[x*k : (x+1)*k], bs.cls[x]
					}
					return sig(int(bucket[c])), gcls[bucket[c]]
				}
				for a := blo; a < bhi; a++ {
					sa, ca := local(a)
					for c, n := a+1, 0; c < len(bucket) && n < bucketWindow; c++ {
						sc, cc := local(c)
						if cross(ca, cc) {
							n++
							candidate(bucket[a], bucket[c], sa, sc)
						}
					}
				}
			}
		}
	})
	var all [][2]int32
	for b := range bands {
		capped += bandCapped[b]
		all = append(all, cands[b]...)
		cands[b] = nil
	}
	slices.SortFunc(all, func(x, y [2]int32) int {
		if x[0] != y[0] {
			return int(x[0] - y[0])
		}
		return int(x[1] - y[1])
	})
	all = slices.Compact(all)
	sets := map[int]map[string]struct{}{}
	set := func(g int) map[string]struct{} {
		if s, ok := sets[g]; ok {
			return s
		}
		s := ngrams(bare(texts[members[start[g]]], false), shingle)
		sets[g] = s
		return s
	}
	for _, c := range all {
		gi, gj := int(c[0]), int(c[1])
		if jac := jaccard(set(gi), set(gj)); jac >= threshold {
			star(gj, gi, jac, false)
			star(gi, gj, jac, false)
		}
	}
	slices.SortFunc(out, func(a, b simPair) int {
		if a.I != b.I {
			return a.I - b.I
		}
		return a.J - b.J
	})
	return out, capped
}

// bandBuf is one band pass's scratch: the keys and groups and the radix
// sort's copies, reused across bands and calls.
type bandBuf struct {
	keys, tk []uint64
	gs, tv   []int32
	sig      []uint8 // a capped bucket's block of sketches, side by side
	cls      []int32 // and their groups' classes
}

// capBlock is how many records of a capped bucket have their sketches
// copied side by side at a time, capSpill how many more after them (a
// window reaching past those reads the sketches in place). Variables for
// the tests only.
var (
	capBlock = 4096
	capSpill = 256
)

var bandPool = sync.Pool{New: func() any { return &bandBuf{} }}

// radixSort sorts keys ascending, carrying vals along, by a stable
// least-significant-byte-first radix sort (equal keys keep their order), and
// returns the sorted slices (keys and vals or their scratch copies).
// tk and tv are scratch of the same length.
func radixSort(keys []uint64, vals []int32, tk []uint64, tv []int32) ([]uint64, []int32) {
	if len(keys) < 2 {
		return keys, vals
	}
	for shift := uint(0); shift < 64; shift += 8 {
		var count [256]int
		for _, x := range keys {
			count[uint8(x>>shift)]++
		}
		if count[uint8(keys[0]>>shift)] == len(keys) {
			continue // every key has this byte: nothing moves
		}
		pos := 0
		for d, c := range count {
			count[d] = pos
			pos += c
		}
		for i, x := range keys {
			d := uint8(x >> shift)
			tk[count[d]], tv[count[d]] = x, vals[i]
			count[d]++
		}
		keys, tk = tk, keys
		vals, tv = tv, vals
	}
	return keys, vals
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

// agreeAtLeast reports whether sketches a and b agree in at least need
// bins, stopping as soon as that is decided. Eight bins are compared at a
// time: in x = a ⊕ b (8 bytes) a byte is non-zero where the bins differ, and
//
//	((x & 0x7f…7f) + 0x7f…7f | x) & 0x80…80
//
// has the high bit of exactly those bytes set (the sum carries into a byte's
// high bit iff its low 7 bits are non-zero; the | adds the high bit itself),
// so its popcount is the number of differing bins.
func agreeAtLeast(a, b []uint8, need int) bool {
	if len(a) == 0 || len(a) != len(b) || need > len(a) {
		return false
	}
	const lo7, hi1 = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	miss := len(a) - need
	i := 0
	for ; i+8 <= len(a); i += 8 {
		x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:])
		if x == 0 {
			continue
		}
		if miss -= bits.OnesCount64(((x & lo7) + lo7 | x) & hi1); miss < 0 {
			return false
		}
	}
	for ; i < len(a); i++ {
		if a[i] != b[i] {
			if miss--; miss < 0 {
				return false
			}
		}
	}
	return true
}

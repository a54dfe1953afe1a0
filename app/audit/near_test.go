package audit

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestNearPairsHandMade: near copies whose Jaccard is counted by hand, on
// both sides of the threshold 0.8 (3-shingles; no whitespace or punctuation,
// so the bare text is the text):
//
//	0 x = abcdefghij   (dev)  grams abc bcd cde def efg fgh ghi hij: 8
//	1 y = abcdefghijk  (test) x's 8 + ijk: 9
//	2 z = abcdefghiz   (test) abc … ghi (7 of x's) + hiz: 8
//	3 w = abcdefghijkl (dev)  y's 9 + jkl: 10
//
//	x–y 8 / 9  = 0.889 ≥ 0.8  pair
//	x–z 7 / 9  = 0.778 < 0.8  no pair
//	w–y 9 / 10 = 0.900        pair
//	w–z 7 / 11 = 0.636        no pair
//	x–w (8 / 10 = 0.8) and y–z share a split: not compared.
//
// A fifth record, 4 v = x with full-width letters and a space (the same bare
// text after width folding), is an exact copy of x in test: pair 0–4 exact;
// x and v are one group, so w (dev), 0.8 from that text, pairs with the
// group's first test record, v: 3–4 0.800 (at the threshold, which counts).
func TestNearPairsHandMade(t *testing.T) {
	texts := []string{"abcdefghij", "abcdefghijk", "abcdefghiz", "abcdefghijkl", "ａｂｃ ｄｅｆｇｈｉｊ"}
	split := []string{"dev", "test", "test", "dev", "test"}
	for seed := uint64(1); seed <= 20; seed++ {
		pairs, _ := nearPairs(texts, split, 3, 0.8, newMinhasher(128, seed), func(i, j int) bool { return true })
		var got []string
		for _, p := range pairs {
			got = append(got, fmt.Sprintf("%d-%d %.3f %v", p.I, p.J, p.Sim, p.Exact))
		}
		want := []string{"0-1 0.889 false", "0-4 1.000 true", "1-3 0.900 false", "3-4 0.800 false"}
		if !slices.Equal(got, want) {
			t.Errorf("seed %d: pairs %v, want %v", seed, got, want)
		}
	}
	// Without classes every pair of x, y, z, w is compared: x–w (8 of 10
	// grams shared: exactly 0.8) pairs too; y–z is 7 / 10.
	pairs, _ := nearPairs(texts[:4], nil, 3, 0.8, newMinhasher(128, 42), func(i, j int) bool { return true })
	var got []string
	for _, p := range pairs {
		got = append(got, fmt.Sprintf("%d-%d %.3f", p.I, p.J, p.Sim))
	}
	if want := []string{"0-1 0.889", "0-3 0.800", "1-3 0.900"}; !slices.Equal(got, want) {
		t.Errorf("no classes: pairs %v, want %v", got, want)
	}
}

// TestNearPairsChinese: 5-shingles of a Chinese sentence with one character
// replaced (the OCR slip 人 → 入 of the fixture). The bare text has 31
// characters (该公司共有从业人员二百一十人 14, 设有安全环保部 7,
// 配备专职安全人员三名 10; the commas and the full stop removed), so 27
// distinct grams each; the replaced character is the 14th, in the grams
// starting at positions 10–14 (5 grams), so 22 grams are shared:
// J = 22 / (27 + 27 − 22) = 22/32 = 0.6875 — below the document threshold
// 0.92, above 0.6. Appending 另有 (2 characters) to the original instead
// adds 2 grams: J = 27/29 = 0.931 ≥ 0.92.
func TestNearPairsChinese(t *testing.T) {
	a := "该公司共有从业人员二百一十人，设有安全环保部，配备专职安全人员三名。"
	ocr := strings.Replace(a, "一十人", "一十入", 1)
	longer := strings.TrimSuffix(a, "。") + "另有。"
	if n := len(bare(a, false)); n != 31 {
		t.Fatalf("bare length %d, want 31", n)
	}
	check := func(b string, threshold, want float64, pair bool) {
		t.Helper()
		pairs, _ := nearPairs([]string{a, b}, []string{"dev", "test"}, 5, threshold, newMinhasher(128, 42), func(i, j int) bool { return true })
		if got := len(pairs) == 1; got != pair {
			t.Fatalf("%q at %.2f: pairs %v, want pair %v", b, threshold, pairs, pair)
		}
		if pair && fmt.Sprintf("%.4f", pairs[0].Sim) != fmt.Sprintf("%.4f", want) {
			t.Errorf("%q: Jaccard %.4f, want %.4f", b, pairs[0].Sim, want)
		}
	}
	check(ocr, 0.92, 0, false)
	check(ocr, 0.6, 22.0/32, true)
	check(longer, 0.92, 27.0/29, true)
}

// TestNearPairsRecall is a property test against brute force: on random
// small sets (distinct texts, two splits, near copies made by a few
// character edits so that many pairs fall on both sides of the threshold),
// every pair nearPairs reports has its exact Jaccard ≥ the threshold (Sim
// is that Jaccard), and it finds at least 98 % of the cross-split pairs
// whose exact Jaccard (ngrams, jaccard: the definition) reaches it.
func TestNearPairsRecall(t *testing.T) {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	total, found := 0, 0
	for round := uint64(0); round < 30; round++ {
		r := rand.New(rand.NewPCG(round, 752))
		shingle := 3 + int(round%3) // 3, 4, 5
		threshold := []float64{0.8, 0.92, 0.95}[round%3]
		var texts, split []string
		seen := map[string]bool{}
		for len(texts) < 120 {
			var s string
			if len(texts) > 0 && r.IntN(2) == 0 {
				// a near copy: a random earlier text with 1–3 edits
				rs := []rune(texts[r.IntN(len(texts))])
				for e := 1 + r.IntN(3); e > 0; e-- {
					p := r.IntN(len(rs))
					switch r.IntN(3) {
					case 0:
						rs[p] = rune(alphabet[r.IntN(len(alphabet))])
					case 1:
						rs = slices.Insert(rs, p, rune(alphabet[r.IntN(len(alphabet))]))
					default:
						if len(rs) > 1 {
							rs = slices.Delete(rs, p, p+1)
						}
					}
				}
				s = string(rs)
			} else {
				b := make([]byte, 20+r.IntN(100))
				for i := range b {
					b[i] = alphabet[r.IntN(len(alphabet))]
				}
				s = string(b)
			}
			if seen[s] {
				continue
			}
			seen[s] = true
			texts = append(texts, s)
			split = append(split, []string{"dev", "test"}[r.IntN(2)])
		}
		pairs, _ := nearPairs(texts, split, shingle, threshold, newMinhasher(128, round), func(i, j int) bool { return true })
		sets := make([]map[string]struct{}, len(texts))
		for i, s := range texts {
			sets[i] = ngrams(bare(s, false), shingle)
		}
		got := map[[2]int]bool{}
		for _, p := range pairs {
			jac := jaccard(sets[p.I], sets[p.J])
			if p.Exact || split[p.I] == split[p.J] || jac < threshold || jac != p.Sim {
				t.Errorf("round %d: reported %+v, exact Jaccard %.4f, splits %s/%s", round, p, jac, split[p.I], split[p.J])
			}
			got[[2]int{p.I, p.J}] = true
		}
		for i := range texts {
			for j := i + 1; j < len(texts); j++ {
				if split[i] == split[j] {
					continue
				}
				if jaccard(sets[i], sets[j]) >= threshold {
					total++
					if got[[2]int{i, j}] {
						found++
					}
				}
			}
		}
	}
	t.Logf("recall %d / %d", found, total)
	if total < 100 {
		t.Fatalf("only %d pairs above the threshold: the input exercises too little", total)
	}
	if float64(found) < 0.98*float64(total) {
		t.Errorf("recall %d / %d < 98 %%", found, total)
	}
}

// TestRadixSort: radixSort against slices.SortStableFunc on random keys
// with many ties (the values keep their order among equal keys).
func TestRadixSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 5000
	keys, vals := make([]uint64, n), make([]int32, n)
	type kv struct {
		k uint64
		v int32
	}
	want := make([]kv, n)
	for i := range keys {
		keys[i] = r.Uint64() >> (r.IntN(4) * 20) // some keys with zero high bytes
		if i%3 == 0 {
			keys[i] = keys[r.IntN(i+1)]
		}
		vals[i] = int32(i)
		want[i] = kv{keys[i], vals[i]}
	}
	slices.SortStableFunc(want, func(a, b kv) int { return cmp.Compare(a.k, b.k) })
	k, v := radixSort(keys, vals, make([]uint64, n), make([]int32, n))
	for i := range want {
		if k[i] != want[i].k || v[i] != want[i].v {
			t.Fatalf("position %d: (%x, %d), want (%x, %d)", i, k[i], v[i], want[i].k, want[i].v)
		}
	}
}

// TestAgreeAtLeast: the eight-bins-at-a-time count against a byte loop, on
// random sketches of lengths 4–132 (tails not a multiple of 8) with every
// number of differing bins, at need = the true count (true) and one more
// (false).
func TestAgreeAtLeast(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for k := 4; k <= 132; k += 4 {
		for diff := 0; diff <= k; diff += 1 + k/16 {
			a := make([]uint8, k)
			for i := range a {
				a[i] = uint8(r.IntN(256))
			}
			b := slices.Clone(a)
			for _, p := range r.Perm(k)[:diff] {
				b[p] ^= uint8(1 + r.IntN(255)) // a different byte, sometimes only its high bit
			}
			eq := k - diff
			if !agreeAtLeast(a, b, eq) || agreeAtLeast(a, b, eq+1) {
				t.Fatalf("k %d, %d equal bins: agreeAtLeast(%d) = %v, (%d) = %v", k, eq, eq, agreeAtLeast(a, b, eq), eq+1, agreeAtLeast(a, b, eq+1))
			}
		}
	}
}

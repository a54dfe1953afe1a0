package audit

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"eval752/app/textnorm"
)

// Text normalisation. Seed 003 §3.1 allows Unicode NFKC / full-width→half-width
// folding and whitespace compression, and forbids lower-casing the stored text
// (element symbols). The audit never rewrites a stored text: these functions
// build comparison keys only. Width folding is textnorm.FoldWidth (the
// full-width ASCII block U+FF01–U+FF5E and the ideographic space U+3000);
// why these keys keep case and punctuation where answer.Normalize does not
// is written in package textnorm.

// compact is the verbatim-comparison key of seed 002's answer check: width
// folded, every whitespace rune removed, everything else kept. Two texts that
// differ only in line breaks, spaces or full-width forms compare equal.
func compact(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		r = textnorm.FoldWidth(r)
		if unicode.IsSpace(r) || r == 0x200B || r == 0xFEFF {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// bare is the key for n-gram statistics and duplicate detection: compact
// with punctuation removed as well (symbols such as ℃, % and ‰ are kept,
// they carry meaning). lower additionally folds Latin case; it is used only
// for retrieval similarity, where "PP" and "pp" should match.
func bare(s string, lower bool) []rune {
	return appendBare(make([]rune, 0, utf8.RuneCountInString(s)), s, lower)
}

// appendBare appends bare(s, lower) to out (a caller reusing one buffer
// builds no slice per text).
func appendBare(out []rune, s string, lower bool) []rune {
	for _, r := range s {
		r = textnorm.FoldWidth(r)
		if unicode.IsSpace(r) || unicode.IsPunct(r) || r == 0x200B || r == 0xFEFF {
			continue
		}
		if lower {
			r = unicode.ToLower(r)
		}
		out = append(out, r)
	}
	return out
}

// ngrams returns the distinct character n-grams of rs. A text shorter than n
// (but not empty) yields itself as its only gram, so short answers still
// compare.
func ngrams(rs []rune, n int) map[string]struct{} {
	out := map[string]struct{}{}
	if len(rs) == 0 || n <= 0 {
		return out
	}
	if len(rs) < n {
		out[string(rs)] = struct{}{}
		return out
	}
	for i := 0; i+n <= len(rs); i++ {
		out[string(rs[i:i+n])] = struct{}{}
	}
	return out
}

// ngramCoverage is seed 002's check of a paraphrased answer against its
// clause(s):
//
//	A        = distinct character n-grams of the answer (bare, case kept)
//	C        = ∪ over cited bodies of their distinct character n-grams
//	coverage = |A ∩ C| / |A|
//
// Grams are taken per body, so no gram straddles two clauses. An empty
// answer has coverage 1 (nothing to check).
func ngramCoverage(answer string, bodies []string, n int) float64 {
	a := ngrams(bare(answer, false), n)
	if len(a) == 0 {
		return 1
	}
	c := map[string]struct{}{}
	for _, b := range bodies {
		rs := bare(b, false)
		if len(rs) < n {
			c[string(rs)] = struct{}{}
			continue
		}
		for i := 0; i+n <= len(rs); i++ {
			c[string(rs[i:i+n])] = struct{}{}
		}
	}
	hit := 0
	for g := range a {
		if _, ok := c[g]; ok {
			hit++
		}
	}
	return float64(hit) / float64(len(a))
}

// splitAnswer cuts a verbatim answer into the sentences seed 002 allows it to
// join with 「；」 (full-width; the ASCII ';' after width folding is the
// same key). keys are the compacted pieces used for matching, show the
// pieces as written (for messages); empty pieces are dropped.
func splitAnswer(answer string) (keys, show []string) {
	for _, p := range strings.FieldsFunc(answer, func(r rune) bool { return r == '；' || r == ';' }) {
		if k := compact(p); k != "" {
			keys = append(keys, k)
			show = append(show, strings.TrimSpace(p))
		}
	}
	return keys, show
}

// clip shortens s to at most n runes for display, marking the cut with "…".
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return string(rs[:n]) + "…"
}

// runeLen counts the characters of s without whitespace (seed 002's "字").
func runeLen(s string) int {
	return utf8.RuneCountInString(compact(s))
}

// Package answer scores a run's answer against an item's reference: choice
// questions, free text (exact, alias, substring, character-bigram coverage),
// numbers with tolerance and unit, refusals and pairwise verdicts.
//
// Every text comparison goes through Normalize first, so "巴黎。" and " 巴黎"
// and "ＰＡＲＩＳ" and "paris" compare as the same answer.
package answer

import (
	"strings"
	"unicode"

	"eval752/app/textnorm"
)

// Normalize folds text for answer matching:
//
//  1. width folding (the NFKC part that matters for answers): full-width
//     ASCII U+FF01–U+FF5E → U+0021–U+007E, ideographic space U+3000 → space;
//  2. whitespace and punctuation (Unicode P*) removed, except what changes
//     a number: "%", "‰", a decimal point between digits, a leading minus;
//     symbols (S*) such as "℃", "+", "=" are kept;
//  3. Latin letters lower-cased (other scripts have no case to fold).
//
// Width folding is textnorm.FoldWidth, shared with the audit and validate
// keys; the rest differs from them on purpose (see package textnorm).
// It is deliberately not full NFKC (no compatibility decomposition of "①" or
// ligatures) so that it needs no Unicode tables beyond the standard library.
func Normalize(s string) string {
	rs := []rune(textnorm.FoldWidthString(s))
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range rs {
		if unicode.IsSpace(r) {
			continue
		}
		if unicode.IsPunct(r) && !keepPunct(rs, i) {
			continue
		}
		if unicode.Is(unicode.Latin, r) {
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// keepPunct keeps the punctuation that changes a number's meaning: "%" and
// "‰", a decimal point between digits ("1.5" ≠ "15"), and a minus sign
// before a digit that does not follow one ("-3" ≠ "3"; "2024-01" keeps
// nothing special).
func keepPunct(rs []rune, i int) bool {
	r := rs[i]
	digit := func(j int) bool { return j >= 0 && j < len(rs) && rs[j] >= '0' && rs[j] <= '9' }
	switch r {
	case '%', '‰':
		return true
	case '.':
		return digit(i-1) && digit(i+1)
	case '-':
		return digit(i+1) && !digit(i-1)
	}
	return false
}

// foldText applies width folding and trims, keeping punctuation (used where
// separators matter, e.g. numbers and choice letters).
func foldText(s string) string {
	return strings.TrimSpace(textnorm.FoldWidthString(s))
}

// Package textnorm holds the width folding that every text comparison key
// of eval752 starts from. The standard library has no NFKC table, so
// FoldWidth covers the part of NFKC that matters for Chinese benchmark text:
// the full-width ASCII block and the ideographic space.
//
// The keys built on top of it differ on purpose, because they answer
// different questions, and each stays with the package that owns the
// question:
//
//	answer.Normalize      answer matching: whitespace and punctuation dropped
//	                      (except what changes a number: "%", "‰", a decimal
//	                      point, a leading minus), Latin lower-cased.
//	audit.compact / bare  seed 002's verbatim and n-gram checks: whitespace
//	                      (and zero-width space, BOM) dropped, case kept —
//	                      seed 003 §3.1 forbids lower-casing stored text
//	                      (element symbols such as "Co" / "CO").
//	validate.NormalizeText duplicate-question detection: runs of whitespace
//	                      collapsed to one space (not removed: "a b" and "ab"
//	                      are different English questions), punctuation kept,
//	                      Latin lower-cased.
package textnorm

// FoldWidth maps the full-width ASCII forms U+FF01–U+FF5E to U+0021–U+007E
// and the ideographic space U+3000 to an ASCII space; every other rune is
// returned as it is.
func FoldWidth(r rune) rune {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E:
		return r - 0xFF01 + 0x21
	case r == 0x3000:
		return ' '
	}
	return r
}

// FoldWidthString applies FoldWidth to every rune of s.
func FoldWidthString(s string) string {
	rs := []rune(s)
	for i, r := range rs {
		rs[i] = FoldWidth(r)
	}
	return string(rs)
}

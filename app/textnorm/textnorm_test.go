package textnorm

import "testing"

// Expected values from the Unicode code charts: U+FF01–U+FF5E are the
// full-width forms of U+0021–U+007E (offset 0xFEE0); U+3000 is the
// ideographic space.
func TestFoldWidth(t *testing.T) {
	for _, c := range []struct {
		in, want rune
	}{
		{'！', '!'},           // U+FF01, first of the block
		{'～', '~'},           // U+FF5E, last of the block
		{'Ａ', 'A'},           // U+FF21
		{'５', '5'},           // U+FF15
		{'　', ' '},           // U+3000
		{'｟', '｟'},           // U+FF5F, just past the block: unchanged
		{'巴', '巴'},           // CJK: unchanged
		{'a', 'a'},           // ASCII: unchanged
		{'\uFF00', '\uFF00'}, // just before the block: unchanged
	} {
		if got := FoldWidth(c.in); got != c.want {
			t.Errorf("FoldWidth(%U) = %U, want %U", c.in, got, c.want)
		}
	}
}

func TestFoldWidthString(t *testing.T) {
	// Hand-folded: each full-width letter/digit/sign minus 0xFEE0, U+3000 → ' '.
	if got, want := FoldWidthString("ＰＡＲＩＳ　１．５％ 巴黎。"), "PARIS 1.5% 巴黎。"; got != want {
		t.Errorf("FoldWidthString = %q, want %q", got, want)
	}
}

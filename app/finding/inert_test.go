package finding

import (
	"strconv"
	"testing"
)

// Inert escapes exactly the characters that are not graphic, as strconv's
// quoting spells them, and adds no quotes: expected values are Go's own
// escapes (strconv.QuoteRune) written out by hand.
func TestInert(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"sections/a.jsonl", "sections/a.jsonl"},
		{"数据/问题 一.jsonl", "数据/问题 一.jsonl"},
		{"a\u3000b\u00a0c", "a\u3000b\u00a0c"}, // Unicode spaces are graphic: kept
		{`C:\x "quoted"`, `C:\x "quoted"`},     // backslashes and quotes are kept as they are
		{"a\nb", `a\nb`},
		{"a\r\nb", `a\r\nb`},
		{"\tx", `\tx`},
		{"\x1b[2Jgone", `\x1b[2Jgone`},
		{"nul\x00", `nul\x00`},
		{"del\x7f", `del\x7f`},
		{"bell\a", `bell\a`},
		{"\u0085next line", `\u0085next line`},
		{"line\u2028sep", `line\u2028sep`},
		{"rtl\u202eoverride", `rtl\u202eoverride`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"\xe4\xb8", `\xe4\xb8`}, // a truncated sequence: each byte
		{"", ""},
	} {
		if got := Inert(c.in); got != c.want {
			t.Errorf("Inert(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// what strconv.Quote prints (a %q in a message) is already inert
	for _, s := range []string{"a\nb\x1b\u202e\xff", "普通"} {
		q := strconv.Quote(s)
		if Inert(q) != q {
			t.Errorf("Inert changed the quoted %s", q)
		}
	}
}

// A finding's one-line form is inert too.
func TestFindingStringInert(t *testing.T) {
	f := Finding{Path: "b.zip!x\n./forged.jsonl:1: error fake: x", Line: 3, Code: "c", Message: "m\x1b[2J", Pointer: "/a\rb"}
	if got, want := f.String(), `b.zip!x\n./forged.jsonl:1: error fake: x:3: error c: m\x1b[2J (at /a\rb)`; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

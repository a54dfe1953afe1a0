package jsonl

import "testing"

// Expected pointers follow RFC 6901 §3 and §5: "~" is written "~0" and "/"
// is written "~1"; an array index is its decimal form.
func TestPointer(t *testing.T) {
	for _, c := range []struct {
		parts []any
		want  string
	}{
		{nil, ""},
		{[]any{"gold", 0, "region"}, "/gold/0/region"},
		{[]any{"a/b"}, "/a~1b"},
		{[]any{"m~n"}, "/m~0n"},
		{[]any{"~/"}, "/~0~1"}, // "~" escaped first, so "/" does not become "~01"
		{[]any{""}, "/"},
		{[]any{"x", 2.5}, "/x/"}, // neither key nor index: empty token
	} {
		if got := Pointer(c.parts...); got != c.want {
			t.Errorf("Pointer(%v) = %q, want %q", c.parts, got, c.want)
		}
	}
}

// Offsets counted by hand: "é" is 2 bytes (C3 A9), so a stray 0xFF after
// "aé" sits at byte 3; a truncated 3-byte sequence E4 B8 at byte 1.
func TestBadUTF8(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want int
	}{
		{[]byte("abc"), 3},
		{[]byte("aé\xffz"), 3},
		{[]byte("a\xe4\xb8"), 1},
		{[]byte(""), 0},
		{[]byte("巴黎"), 6},
	} {
		if got := BadUTF8(c.in); got != c.want {
			t.Errorf("BadUTF8(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

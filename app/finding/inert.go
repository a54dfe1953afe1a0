package finding

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Inert returns s fit to print on one line of a terminal or a page: every
// character that is not graphic (control characters such as \n, \r, ESC and
// NUL, Unicode line and paragraph separators, bidi overrides and other
// format characters) and every invalid UTF-8 byte is written as the escape
// Go's strconv quoting uses (\n, \r, \t, \x1b, \u202e, …); everything else,
// letters of every script and spaces included, is kept as it is and no
// quotes are added. An ordinary name comes back unchanged, and a crafted
// one can neither start a new line nor drive the terminal.
func Inert(s string) string {
	if isInert(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\x`)
			b.WriteByte("0123456789abcdef"[s[i]>>4])
			b.WriteByte("0123456789abcdef"[s[i]&0xf])
			i++
			continue
		}
		if unicode.IsGraphic(r) {
			b.WriteString(s[i : i+size])
		} else {
			q := strconv.QuoteRune(r) // '\n', '\x1b', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// isInert reports whether Inert would return s unchanged.
func isInert(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || !unicode.IsGraphic(r) {
			return false
		}
		i += size
	}
	return true
}

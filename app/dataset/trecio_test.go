package dataset

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"eval752/app/jsonl"
	"eval752/app/trecio"
)

// TestTRECLineCapIsJSONL: trecio's Strict mode stands for jsonl.Lines's
// rules, so its default line cap (used when a caller passes 0) and the
// messages that print it must be jsonl's.
func TestTRECLineCapIsJSONL(t *testing.T) {
	if trecio.DefaultMaxLine != jsonl.DefaultMaxLine {
		t.Fatalf("trecio.DefaultMaxLine = %d, jsonl.DefaultMaxLine = %d", trecio.DefaultMaxLine, jsonl.DefaultMaxLine)
	}
}

// TestTRECStrictLinesMatchJSONL: trecio's Strict line rules are
// jsonl.Lines's. On random inputs (BOM, CRLF, blank and space-only lines,
// comments, long lines, invalid UTF-8, no final newline) and random block
// sizes, trecio's reader passes on the same lines with the same numbers
// and reports the same line findings as jsonl.Lines, the independent
// reader every JSONL format uses.
func TestTRECStrictLinesMatchJSONL(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	pieces := []string{"q Q0 d 1 0.5 t", "a", "", " \t", "\r", "# c", "\xff\xfe", "é", "\u00a0", strings.Repeat("x", 30), strings.Repeat("y", 90)}
	for round := 0; round < 400; round++ {
		var in strings.Builder
		if rng.IntN(4) == 0 {
			in.WriteString("\xEF\xBB\xBF")
		}
		n := rng.IntN(12)
		for i := 0; i < n; i++ {
			in.WriteString(pieces[rng.IntN(len(pieces))])
			in.WriteString(pieces[rng.IntN(len(pieces))])
			if i < n-1 || rng.IntN(2) == 0 {
				if rng.IntN(3) == 0 {
					in.WriteString("\r")
				}
				in.WriteString("\n")
			}
		}
		maxLine := int64(8 + rng.IntN(80))
		var want []string
		wl, wfs, err := jsonl.Lines(strings.NewReader(in.String()), "f", maxLine, func(n int, line []byte) {
			want = append(want, fmt.Sprintf("%d %q", n, line))
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range wfs {
			want = append(want, f.String())
		}
		var got []string
		var gfs []string
		rd := trecio.NewReader(strings.NewReader(in.String()), 1+rng.IntN(64), maxLine)
		var lines int64
		for {
			b, err := rd.Next(nil)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			it := b.Lines(trecio.Strict, maxLine)
			for {
				st, ok := it.Next()
				if !ok {
					break
				}
				if st == trecio.Bad {
					it.Issue.Line += lines
					gfs = append(gfs, TRECFinding("f", &it.Issue).String())
					continue
				}
				got = append(got, fmt.Sprintf("%d %q", lines+it.Rel, it.Line))
			}
			lines += it.Count()
		}
		got = append(got, gfs...)
		if int64(wl) != lines || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("input %q, cap %d:\ntrecio (%d lines):\n%s\njsonl (%d lines):\n%s", in.String(), maxLine, lines, strings.Join(got, "\n"), wl, strings.Join(want, "\n"))
		}
	}
}

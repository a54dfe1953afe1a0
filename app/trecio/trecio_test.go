package trecio

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// TestReaderBlocksAreWholeLines: whatever the block size, the blocks put
// back together are the input, every block but the last ends at a '\n',
// and each block's Offset is where it starts in the input.
func TestReaderBlocksAreWholeLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var in bytes.Buffer
	for i := 0; i < 500; i++ {
		in.WriteString(strings.Repeat("x", rng.IntN(40)))
		in.WriteByte('\n')
	}
	in.WriteString("last line without newline")
	for _, size := range []int{1, 7, 64, 1000, 1 << 20} {
		rd := NewReader(bytes.NewReader(in.Bytes()), size, 0)
		var got []byte
		for {
			b, err := rd.Next(nil)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if b.Offset != int64(len(got)) {
				t.Fatalf("size %d: block %d at offset %d, want %d", size, b.Seq, b.Offset, len(got))
			}
			got = append(got, b.Data...)
			if len(got) < in.Len() && b.Data[len(b.Data)-1] != '\n' {
				t.Fatalf("size %d: block %d does not end at a line end", size, b.Seq)
			}
		}
		if !bytes.Equal(got, in.Bytes()) {
			t.Fatalf("size %d: blocks do not add up to the input", size)
		}
	}
}

// TestScanStrictLineRules: Strict reads lines as jsonl.Lines does. The
// input, line by line: 1 BOM + record, 2 CRLF record, 3 blank, 4 a line of
// 21 bytes + "\n" (22 > cap 10 + 2: skipped unread, "≥ 22"), 5 invalid
// UTF-8 at byte 3 (column 3), 6 a record without a final newline. Offsets
// are the lines' first bytes: 0, 3+5=8, 8+5=13, 13+3=16, 16+22=38, 38+5=43.
func TestScanStrictLineRules(t *testing.T) {
	in := "\xEF\xBB\xBFab c\na b\r\n \t\n" + strings.Repeat("y", 21) + "\nab\xffc\nq r"
	type got struct {
		n, off int64
		s      string
	}
	var lines []got
	var issues []string
	n, err := Scan(strings.NewReader(in), Strict, 10, func(n, off int64, b []byte) {
		lines = append(lines, got{n, off, string(b)})
	}, func(is *Issue) {
		issues = append(issues, is.Message()+" @"+string(rune('0'+is.Offset/10))+string(rune('0'+is.Offset%10)))
	})
	if err != nil || n != 6 {
		t.Fatalf("lines %d, err %v; want 6, nil", n, err)
	}
	want := []got{{1, 0, "ab c"}, {2, 8, "a b"}, {6, 43, "q r"}}
	if len(lines) != len(want) {
		t.Fatalf("lines %v, want %v", lines, want)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %v, want %v", lines[i], want[i])
		}
	}
	wantIssues := []string{
		"line 4 is longer than 10 bytes (≥ 22); skipped @16",
		"line 5 is not valid UTF-8 (first bad byte at column 3) @38",
	}
	if strings.Join(issues, "|") != strings.Join(wantIssues, "|") {
		t.Errorf("issues %q, want %q", issues, wantIssues)
	}
}

// TestParseRunModes: one line, both readings. Expected values are
// trec_eval's (C atof / strtod and isspace) for Lenient and the
// validator's (strconv.ParseFloat, strings.Fields, six fields) for Strict.
func TestParseRunModes(t *testing.T) {
	for _, c := range []struct {
		line    string
		lenient string // "ok <score> <tag>", "skip", or the message
		strict  string
	}{
		{"q Q0 d 1 0.25 t", "ok 0.25 t", "ok 0.25 t"},
		// a seventh field: trec_eval ignores it, the validator refuses
		{"q Q0 d 1 0.25 t extra", "ok 0.25 t", "run line 7 has 7 fields; want 6: qid Q0 docno rank score tag"},
		{"q Q0 d 1 0.25", `malformed run line (want 6 fields: qid iter docno rank score tag): "q Q0 d 1 0.25"`, "run line 7 has 5 fields; want 6: qid Q0 docno rank score tag"},
		// trailing garbage: atof reads 0.5, nobody reads it whole
		{"q Q0 d 1 0.5abc t", `score "0.5abc" is not a number (trec_eval's atof would read it as 0.5)`, `run line 7: score "0.5abc" is not a number`},
		// "1_5": strtod stops at '_' (1), ParseFloat would read 15
		{"q Q0 d 1 1_5 t", `score "1_5" is not a number (trec_eval's atof would read it as 1)`, `run line 7: score "1_5" is not a number`},
		{"q Q0 d 1 nan t", `score "nan" is not a finite number, so the ranking of query "q" is undefined`, `run line 7: score "nan" is not a finite number, so the ranking of query "q" is undefined`},
		{"q Q0 d 1 0x1.8p1 t", "ok 3 t", "ok 3 t"},
		{"  # a comment", "skip", "skip"},
		// U+00A0 is a space for strings.Fields, not for isspace: to
		// trec_eval "q\u00a0Q0" is one field, so the line has 6 fields
		{"q\u00a0Q0 x d 1 0.5 t", "ok 0.5 t", "run line 7 has 7 fields; want 6: qid Q0 docno rank score tag"},
	} {
		for _, m := range []Mode{Lenient, Strict} {
			var rec Record
			var is Issue
			var got string
			switch ParseRun(m, []byte(c.line), &rec, &is) {
			case OK:
				got = "ok " + strconv.FormatFloat(rec.Score, 'g', -1, 64) + " " + string(rec.Tag)
			case Skip:
				got = "skip"
			case Bad:
				is.Line = 7
				got = is.Message()
			}
			want := c.lenient
			if m == Strict {
				want = c.strict
			}
			if got != want {
				t.Errorf("mode %d, %q: %s; want %s", m, c.line, got, want)
			}
		}
	}
}

// TestQrelsParserModes: the grade column and the header, both readings.
func TestQrelsParserModes(t *testing.T) {
	header := func(f []string) bool { return strings.EqualFold(f[0], "qid") && f[3] == "relevance_grade" }
	for _, c := range []struct {
		lines   []string
		lenient []string
		strict  []string
	}{
		// seed 003 §10's header, then judgments; "1.5" is 1 for atol and
		// not an integer for strconv.Atoi; "+2" is 2 for both
		{[]string{"qid 0 chunk_id relevance_grade", "q 0 d 1.5", "q 0 e +2", "q 0 f 1 x"},
			[]string{"header", "ok q d 1", "ok q e 2", `malformed qrels line (want 4 fields: qid iter docno rel): "q 0 f 1 x"`},
			[]string{"header", `qrels line 9: grade "1.5" is not an integer`, "ok q e 2", "qrels line 9 has 5 fields; want 4: qid iter docno grade"}},
		// a header only counts on the first content line
		{[]string{"# comment", "q 0 d 3", "qid 0 chunk_id relevance_grade"},
			[]string{"skip", "ok q d 3", "ok qid chunk_id 0"},
			[]string{"skip", "ok q d 3", `qrels line 9: grade "relevance_grade" is not an integer`}},
	} {
		for _, m := range []Mode{Lenient, Strict} {
			p := QrelsParser{Mode: m, Layout: QrelsTREC(header)}
			want := c.lenient
			if m == Strict {
				want = c.strict
			}
			for i, line := range c.lines {
				var rec Record
				var is Issue
				var got string
				switch p.Parse([]byte(line), &rec, &is) {
				case OK:
					got = "ok " + string(rec.QID) + " " + string(rec.DocNo) + " " + strconv.FormatInt(rec.Grade, 10)
				case Skip:
					got = "skip"
				case Header:
					got = "header"
				case Bad:
					is.Line = 9
					got = is.Message()
				}
				if got != want[i] {
					t.Errorf("mode %d, %q: %s; want %s", m, line, got, want[i])
				}
			}
		}
	}
}

// TestReaderSkipsLongLineUnheld: with blocks of 16 bytes and a cap of 20,
// a 100-byte line (101 with its '\n') is one Long block, never held; the
// lines around it keep their numbers and offsets (0, 3; the long line at
// 3+4 = 7; the last at 7+101 = 108).
func TestReaderSkipsLongLineUnheld(t *testing.T) {
	in := "ab\nx y\n" + strings.Repeat("z", 100) + "\nlast\n"
	rd := NewReader(strings.NewReader(in), 16, 20)
	var got []string
	var lines int64
	for {
		b, err := rd.Next(nil)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if b.Long > 0 && len(b.Data) != 0 {
			t.Fatalf("a Long block holds %d bytes", len(b.Data))
		}
		it := b.Lines(Strict, 20)
		for {
			st, ok := it.Next()
			if !ok {
				break
			}
			if st == Bad {
				it.Issue.Line += lines
				got = append(got, it.Issue.Message()+" @"+strconv.FormatInt(it.Issue.Offset, 10))
				continue
			}
			got = append(got, strconv.FormatInt(lines+it.Rel, 10)+" "+string(it.Line)+" @"+strconv.FormatInt(it.Offset, 10))
		}
		lines += it.Count()
	}
	want := "1 ab @0|2 x y @3|line 3 is longer than 20 bytes (≥ 101); skipped @7|4 last @108"
	if strings.Join(got, "|") != want {
		t.Errorf("got %q\nwant %q", strings.Join(got, "|"), want)
	}
}

// TestReaderLongLineSmallReads: a line longer than the block, read from a
// reader that gives one byte per Read (a pipe gives at most 64 KiB), is
// found in linear time. Reading on for the line's end used to search the
// whole buffer again after every read: for this 1 MiB line that is about
// 2^20 · 2^19 = 5·10^11 bytes compared (minutes); searching only the bytes
// read since takes about 2^20 small steps (milliseconds), far inside the
// 30 s bound even on a loaded machine with -race. Both modes; in Strict the
// cap (2 MiB) is above the line, so the line is held and passed on whole.
func TestReaderLongLineSmallReads(t *testing.T) {
	long := "q Q0 d 1 0.5 " + strings.Repeat("t", 1<<20)
	in := "a b\n" + long + "\nlast\n"
	for _, m := range []Mode{Lenient, Strict} {
		done := make(chan string, 1)
		go func() {
			rd := NewReader(iotest.OneByteReader(strings.NewReader(in)), 4096, map[Mode]int64{Lenient: 0, Strict: 2 << 20}[m])
			var got []string
			for {
				b, err := rd.Next(nil)
				if err == io.EOF {
					break
				}
				if err != nil {
					done <- err.Error()
					return
				}
				it := b.Lines(m, 2<<20)
				for {
					st, ok := it.Next()
					if !ok {
						break
					}
					if st == Bad {
						got = append(got, "bad")
						continue
					}
					got = append(got, strconv.Itoa(len(it.Line))+"@"+strconv.FormatInt(it.Offset, 10))
				}
			}
			done <- strings.Join(got, " ")
		}()
		// the lines: "a b" (3 bytes at 0), the long line (13 + 2^20 bytes
		// at 4), "last" (4 bytes at 4 + 13 + 2^20 + 1)
		want := "3@0 " + strconv.Itoa(len(long)) + "@4 4@" + strconv.Itoa(4+len(long)+1)
		select {
		case got := <-done:
			if got != want {
				t.Errorf("mode %d: lines %s, want %s", m, got, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("mode %d: a 1 MiB line read one byte at a time took over 30 s (the reader searches the whole line again after every read)", m)
		}
	}
}

// TestReaderLongLineBufferDoubles: the buffer a long line is read into
// doubles, so it is never more than twice the bytes it holds. Hand-worked:
// blocks of 4096 bytes and one line of 2^20 bytes + '\n' — the buffer
// doubles 4096 → … → 2^20 (full, no '\n' yet) → 2^21, which holds the line:
// 2^21 ≤ 2 · (2^20 + 1). (slices.Grow left append's growth: a 2,203,648
// byte buffer here, and 119 MiB for a 60 MiB line.)
func TestReaderLongLineBufferDoubles(t *testing.T) {
	in := strings.Repeat("x", 1<<20) + "\n"
	for _, maxLine := range []int64{0, 2 << 20} {
		rd := NewReader(strings.NewReader(in), 4096, maxLine)
		b, err := rd.Next(nil)
		if err != nil || len(b.Data) != len(in) {
			t.Fatalf("cap %d: block of %d bytes, err %v; want the whole %d-byte line", maxLine, len(b.Data), err, len(in))
		}
		if cap(b.Data) != 1<<21 {
			t.Errorf("cap %d: the line's buffer holds %d bytes; want 2^21 = %d (doubling from 4096)", maxLine, cap(b.Data), 1<<21)
		}
	}
}

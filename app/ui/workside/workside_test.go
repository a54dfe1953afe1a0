package workside

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"eval752/app/dataset"
	"fmt"
	"strings"
	"testing"

	"eval752/app/engine"
	"eval752/app/report"
	"eval752/app/ui/wire"
)

func TestSlimAndExport(t *testing.T) {
	v := 0.5
	rep := &report.Report{Kind: "score", Title: "Scores", Sections: []report.Section{{ID: "s", Title: "S",
		Tables: []report.Table{{ID: "t", Columns: []report.Column{{Key: "m", Label: "m"}},
			Rows: [][]report.Cell{{{Metric: "acc", Stratum: "all", Run: "r1", Value: &v}}}}}}},
		Items: []report.ItemDetail{{ID: "x"}, {ID: "y"}}}
	res := &engine.Result{Score: rep}
	slim, items := Slim(res)
	if slim.Score.Items != nil || len(items) != 2 || len(res.Score.Items) != 2 {
		t.Fatalf("Slim: slim items %v, items %d, original items %d; want nil, 2, 2 (original untouched)", slim.Score.Items, len(items), len(res.Score.Items))
	}
	// The JSON export must be exactly what the report's own renderer writes
	// (the CLI prints rep.WriteJSON), items included.
	var want bytes.Buffer
	rep.WriteJSON(&want)
	name, mime, data, err := Export(res, wire.ExportRequest{What: "score", Format: "json"})
	if err != nil || name != "eval752-score.json" || mime != "application/json" || !bytes.Equal(data, want.Bytes()) {
		t.Errorf("Export json: %v %s %s equal=%v", err, name, mime, bytes.Equal(data, want.Bytes()))
	}
	var back report.Report
	if err := json.Unmarshal(data, &back); err != nil || len(back.Items) != 2 {
		t.Errorf("exported JSON does not read back with its items: %v", err)
	}
	if _, _, _, err := Export(res, wire.ExportRequest{What: "compare", Format: "json"}); err == nil {
		t.Error("Export of a missing report: no error")
	}
	if _, _, _, err := Export(res, wire.ExportRequest{What: "score", Format: "pdf"}); err == nil {
		t.Error("Export in an unknown format: no error")
	}
	_, _, data, err = Export(res, wire.ExportRequest{What: "findings", Format: "csv"})
	if err != nil || string(data) != "severity,code,path,line,pointer,message,hint\n" {
		t.Errorf("findings CSV of no findings = %q, %v; want the header only", data, err)
	}
}

// memInput is an in-memory input.
func memInput(name string, b []byte) dataset.Input {
	return dataset.Input{Name: name, R: bytes.NewReader(b), Size: int64(len(b))}
}

func numbered(n int, eol string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `{"line":%d}%s`, i, eol)
	}
	return b.String()
}

func TestReadLines(t *testing.T) {
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.Create("sections/a.jsonl")
	w.Write([]byte(numbered(10, "\n")))
	w, _ = zw.Create("sections/long.jsonl")
	w.Write([]byte("short\n" + strings.Repeat("é", MaxLineDisplay) + "\nlast"))
	zw.Close()
	inputs := []dataset.Input{
		memInput("b.eval752.zip", zbuf.Bytes()),
		memInput("crlf.jsonl", []byte(numbered(4, "\r\n"))),
	}
	line := func(i int) string { return fmt.Sprintf(`{"line":%d}`, i) }
	tests := []struct {
		name      string
		req       wire.LinesRequest
		first     int
		lines     []string
		truncated []bool
		err       bool
	}{
		{"zip entry, middle", wire.LinesRequest{Path: "b.eval752.zip!sections/a.jsonl", Line: 5, Context: 2}, 3,
			[]string{line(3), line(4), line(5), line(6), line(7)}, nil, false},
		{"zip entry, start clipped", wire.LinesRequest{Path: "b.eval752.zip!sections/a.jsonl", Line: 1, Context: 3}, 1,
			[]string{line(1), line(2), line(3), line(4)}, nil, false},
		{"zip entry, end clipped", wire.LinesRequest{Path: "b.eval752.zip!sections/a.jsonl", Line: 10, Context: 3}, 7,
			[]string{line(7), line(8), line(9), line(10)}, nil, false},
		{"plain file, CRLF stripped", wire.LinesRequest{Path: "crlf.jsonl", Line: 2, Context: 1}, 1,
			[]string{line(1), line(2), line(3)}, nil, false},
		// "é" is 2 bytes: MaxLineDisplay bytes hold MaxLineDisplay/2 of them.
		{"long line cut at a rune boundary", wire.LinesRequest{Path: "b.eval752.zip!sections/long.jsonl", Line: 2, Context: 1}, 1,
			[]string{"short", strings.Repeat("é", MaxLineDisplay/2), "last"}, []bool{false, true, false}, false},
		{"past the end", wire.LinesRequest{Path: "crlf.jsonl", Line: 9}, 0, nil, nil, true},
		{"whole-file finding", wire.LinesRequest{Path: "crlf.jsonl", Line: 0}, 0, nil, nil, true},
		{"unknown entry", wire.LinesRequest{Path: "b.eval752.zip!nope.jsonl", Line: 1}, 0, nil, nil, true},
		{"unknown file", wire.LinesRequest{Path: "other.jsonl", Line: 1}, 0, nil, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := ReadLines(inputs, tc.req)
			if (w.Err != "") != tc.err {
				t.Fatalf("err = %q, want error %v", w.Err, tc.err)
			}
			if tc.err {
				return
			}
			if w.First != tc.first || strings.Join(w.Lines, "|") != strings.Join(tc.lines, "|") {
				t.Errorf("got first %d lines %q, want %d %q", w.First, w.Lines, tc.first, tc.lines)
			}
			if fmt.Sprint(w.Truncated) != fmt.Sprint(tc.truncated) {
				t.Errorf("truncated %v, want %v", w.Truncated, tc.truncated)
			}
		})
	}
}

// TestReadLinesFocus: on a line far longer than the window shows, the
// pointer's value is located on the whole line and every line of the
// window starts lead bytes before it; Hit is the value's span there.
func TestReadLinesFocus(t *testing.T) {
	pad := strings.Repeat("x", 9000)
	target := `{"id":"q2","text":"` + pad + `","type":"essay"}`
	body := `{"id":"q1","type":"freeform"}` + "\n" + target + "\n" + `{"id":"q3","note":"` + pad + `"}` + "\n"
	in := dataset.Input{Name: "a.jsonl", R: strings.NewReader(body), Size: int64(len(body))}
	w := ReadLines([]dataset.Input{in}, wire.LinesRequest{Path: "a.jsonl", Line: 2, Context: 1, Pointer: "/type"})
	if w.Err != "" || len(w.Lines) != 3 {
		t.Fatalf("window %+v", w)
	}
	st := strings.Index(target, `"essay"`)
	if w.From != st-lead || len(w.Hit) != 2 || !w.HitExact {
		t.Fatalf("from %d hit %v exact %v, want from %d", w.From, w.Hit, w.HitExact, st-lead)
	}
	if got := w.Lines[1][w.Hit[0]:w.Hit[1]]; got != `"essay"` {
		t.Errorf("hit text %q, want the value", got)
	}
	if w.Lines[0] != "" || !strings.HasPrefix(w.Lines[2], "x") {
		t.Errorf("context lines %q / %.20q…, want the short line empty past From and the long one from the same column", w.Lines[0], w.Lines[2])
	}
}

// TestReadLinesColumn: a finding located by column (a syntax error at
// "column 115", no pointer) gets that column marked: column 115 is byte
// index 114, here the 'Z' written there; past the end of the line (an
// unexpected end of input) the mark is empty at the end; a column far into
// a long line is brought into view like a pointer's value.
func TestReadLinesColumn(t *testing.T) {
	line := strings.Repeat("a", 114) + "Z" + "bc"
	short := `{"id":"cut`
	long := strings.Repeat("y", 6000) + "Q" + "yyy"
	body := line + "\n" + short + "\n" + long + "\n"
	in := dataset.Input{Name: "a.jsonl", R: strings.NewReader(body), Size: int64(len(body))}
	w := ReadLines([]dataset.Input{in}, wire.LinesRequest{Path: "a.jsonl", Line: 1, Context: 0, Column: 115})
	if !w.HitColumn || len(w.Hit) != 2 || w.Lines[0][w.Hit[0]:w.Hit[1]] != "Z" {
		t.Errorf("column 115: hit %v column %v", w.Hit, w.HitColumn)
	}
	w = ReadLines([]dataset.Input{in}, wire.LinesRequest{Path: "a.jsonl", Line: 2, Context: 0, Column: len(short) + 1})
	if !w.HitColumn || len(w.Hit) != 2 || w.Hit[0] != len(short) || w.Hit[1] != len(short) {
		t.Errorf("column past the end: hit %v column %v", w.Hit, w.HitColumn)
	}
	w = ReadLines([]dataset.Input{in}, wire.LinesRequest{Path: "a.jsonl", Line: 3, Context: 0, Column: 6001})
	if w.From != 6000-lead || len(w.Hit) != 2 || w.Lines[0][w.Hit[0]:w.Hit[1]] != "Q" {
		t.Errorf("column 6001 of a long line: from %d hit %v", w.From, w.Hit)
	}
	// a pointer that names a value wins over the column; one that names
	// nothing on the line (a cut record) leaves the column
	json := `{"id":"q4","type":"x"}`
	in2 := dataset.Input{Name: "b.jsonl", R: strings.NewReader(json + "\n" + short + "\n"), Size: int64(len(json) + len(short) + 2)}
	w = ReadLines([]dataset.Input{in2}, wire.LinesRequest{Path: "b.jsonl", Line: 1, Column: 2, Pointer: "/type"})
	if w.HitColumn || len(w.Hit) != 2 || w.Lines[0][w.Hit[0]:w.Hit[1]] != `"x"` {
		t.Errorf("pointer and column: hit %v column %v", w.Hit, w.HitColumn)
	}
	w = ReadLines([]dataset.Input{in2}, wire.LinesRequest{Path: "b.jsonl", Line: 2, Column: 3, Pointer: "/type"})
	if !w.HitColumn || len(w.Hit) != 2 || w.Lines[0][w.Hit[0]:w.Hit[1]] != "i" {
		t.Errorf("pointer without a value on a cut line: hit %v column %v", w.Hit, w.HitColumn)
	}
}

// goneReader fails every read, like a File whose file was deleted or
// rewritten after it was loaded.
type goneReader struct{}

func (goneReader) ReadAt([]byte, int64) (int, error) {
	return 0, errors.New("NotFoundError")
}

// A file that can no longer be read says so, not "has fewer than 1 lines".
func TestReadLinesGone(t *testing.T) {
	w := ReadLines([]dataset.Input{{Name: "big.jsonl", R: goneReader{}, Size: 10 << 20}}, wire.LinesRequest{Path: "big.jsonl", Line: 1, Context: 3})
	if !strings.Contains(w.Err, "can no longer be read") || strings.Contains(w.Err, "fewer than") || len(w.Lines) != 0 {
		t.Errorf("window %+v", w)
	}
}

package wire

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/report"
)

func TestPointerSpan(t *testing.T) {
	const line = `{"id":"q1", "gold":[{"doc":"a","page":5},{"doc":"b"}], "x":{"a/b":1,"m~n":[true,null]}, "s":"br{ace]\"q"}`
	tests := []struct {
		name, pointer string
		want          string // the expected highlighted text, found by hand in line
		exact, ok     bool
	}{
		{"whole record", "", line, true, true},
		{"string member", "/id", `"q1"`, true, true},
		{"array element member", "/gold/0/page", `5`, true, true},
		{"second element", "/gold/1", `{"doc":"b"}`, true, true},
		{"escaped slash", "/x/a~1b", `1`, true, true},
		{"escaped tilde, array", "/x/m~0n/1", `null`, true, true},
		{"string with brackets and quote", "/s", `"br{ace]\"q"`, true, true},
		{"missing member points at its object", "/gold/1/page", `{"doc":"b"}`, false, true},
		{"index past the end points at the array", "/gold/7", `[{"doc":"a","page":5},{"doc":"b"}]`, false, true},
		{"not a pointer", "id", "", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, en, exact, ok := PointerSpan(line, tc.pointer)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if got := line[st:en]; got != tc.want || exact != tc.exact {
				t.Errorf("span %q exact=%v, want %q exact=%v", got, exact, tc.want, tc.exact)
			}
		})
	}
	for _, bad := range []string{`{"a":`, `{"a" 1}`, `["x"`, ``} {
		if _, _, _, ok := PointerSpan(bad, "/a"); ok {
			t.Errorf("PointerSpan(%q) ok, want not ok for broken JSON", bad)
		}
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
		req       LinesRequest
		first     int
		lines     []string
		truncated []bool
		err       bool
	}{
		{"zip entry, middle", LinesRequest{Path: "b.eval752.zip!sections/a.jsonl", Line: 5, Context: 2}, 3,
			[]string{line(3), line(4), line(5), line(6), line(7)}, nil, false},
		{"zip entry, start clipped", LinesRequest{Path: "b.eval752.zip!sections/a.jsonl", Line: 1, Context: 3}, 1,
			[]string{line(1), line(2), line(3), line(4)}, nil, false},
		{"zip entry, end clipped", LinesRequest{Path: "b.eval752.zip!sections/a.jsonl", Line: 10, Context: 3}, 7,
			[]string{line(7), line(8), line(9), line(10)}, nil, false},
		{"plain file, CRLF stripped", LinesRequest{Path: "crlf.jsonl", Line: 2, Context: 1}, 1,
			[]string{line(1), line(2), line(3)}, nil, false},
		// "é" is 2 bytes: MaxLineDisplay bytes hold MaxLineDisplay/2 of them.
		{"long line cut at a rune boundary", LinesRequest{Path: "b.eval752.zip!sections/long.jsonl", Line: 2, Context: 1}, 1,
			[]string{"short", strings.Repeat("é", MaxLineDisplay/2), "last"}, []bool{false, true, false}, false},
		{"past the end", LinesRequest{Path: "crlf.jsonl", Line: 9}, 0, nil, nil, true},
		{"whole-file finding", LinesRequest{Path: "crlf.jsonl", Line: 0}, 0, nil, nil, true},
		{"unknown entry", LinesRequest{Path: "b.eval752.zip!nope.jsonl", Line: 1}, 0, nil, nil, true},
		{"unknown file", LinesRequest{Path: "other.jsonl", Line: 1}, 0, nil, nil, true},
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

func TestPageFilters(t *testing.T) {
	yes, no := true, false
	items := []report.ItemDetail{
		// both runs correct: neither a failure nor a difference
		{ID: "a", Question: "Capital of France?", Runs: []report.RunItem{{Run: "r1", Correct: &yes}, {Run: "r2", Correct: &yes}}},
		// r2 wrong: a failure and a difference
		{ID: "b", Runs: []report.RunItem{{Run: "r1", Correct: &yes}, {Run: "r2", Correct: &no}}},
		// both wrong: a failure, no difference
		{ID: "c", Runs: []report.RunItem{{Run: "r1", Correct: &no}, {Run: "r2", Correct: &no}}},
		// retrieval only, r1 all-zero scores (failure), r2 differs on ndcg
		{ID: "d", Runs: []report.RunItem{{Run: "r1", Scores: map[string]float64{"ndcg@10": 0, "recall@10": 0}},
			{Run: "r2", Scores: map[string]float64{"ndcg@10": 0.5, "recall@10": 0}}}},
		// r2 missing: failure and difference
		{ID: "e", Runs: []report.RunItem{{Run: "r1", Scores: map[string]float64{"ndcg@10": 1}}, {Run: "r2", Missing: true}}},
	}
	ids := func(p ItemPage) string {
		var s []string
		for _, it := range p.Items {
			s = append(s, it.ID)
		}
		return strings.Join(s, ",")
	}
	tests := []struct {
		name    string
		q       ItemQuery
		want    string
		matches int
	}{
		{"all", ItemQuery{}, "a,b,c,d,e", 5},
		{"failures", ItemQuery{Failures: true}, "b,c,d,e", 4},
		{"differences r1/r2", ItemQuery{Differences: true}, "b,d,e", 3},
		{"both filters", ItemQuery{Failures: true, Differences: true}, "b,d,e", 3},
		{"search question, case-insensitive", ItemQuery{Search: "FRANCE"}, "a", 1},
		{"paging", ItemQuery{Offset: 1, Limit: 2}, "b,c", 5},
		{"unknown run: no differences", ItemQuery{Differences: true, RunB: "nope"}, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Page(items, tc.q)
			if got := ids(p); got != tc.want || p.Matches != tc.matches || p.Total != 5 {
				t.Errorf("got %q matches %d total %d, want %q matches %d total 5", got, p.Matches, p.Total, tc.want, tc.matches)
			}
		})
	}
}

package wire

import (
	"eval752/app/finding"
	"fmt"
	"strings"
	"testing"

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
	// a repeated key: the pointer names the last value, the one the decoder
	// (and every check) kept
	const dup = `{"answer":"巴黎","n":1,"answer":"伦敦"}`
	if st, en, exact, ok := PointerSpan(dup, "/answer"); !ok || !exact || dup[st:en] != `"伦敦"` {
		t.Errorf("repeated key: span %q, want the last value", dup[st:en])
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

func TestPageFilters(t *testing.T) {
	yes, no := true, false
	items := []report.ItemDetail{
		// both runs correct: neither a failure nor a difference
		{ID: "a", Question: "Capital of France?", Runs: []report.RunItem{{Run: "r1", Correct: &yes}, {Run: "r2", Correct: &yes}}},
		// r2 wrong: a failure and a difference
		{ID: "b", Runs: []report.RunItem{{Run: "r1", Correct: &yes}, {Run: "r2", Correct: &no, Errors: []string{"RETRIEVAL_MISS", "GEN_OMISSION"}}}},
		// both wrong: a failure, no difference
		{ID: "c", Runs: []report.RunItem{{Run: "r1", Correct: &no, Errors: []string{"GEN_OMISSION"}}, {Run: "r2", Correct: &no}}},
		// retrieval only, r1 all-zero scores (failure), r2 differs on ndcg
		{ID: "d", Runs: []report.RunItem{{Run: "r1", Scores: report.ValuesOf(map[string]float64{"ndcg@10": 0, "recall@10": 0})},
			{Run: "r2", Scores: report.ValuesOf(map[string]float64{"ndcg@10": 0.5, "recall@10": 0})}}},
		// r2 missing: failure and difference
		{ID: "e", Runs: []report.RunItem{{Run: "r1", Scores: report.ValuesOf(map[string]float64{"ndcg@10": 1})}, {Run: "r2", Missing: true}}},
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
		// an error code of any run (seed 003 §9)
		{"error code", ItemQuery{ErrorCode: "GEN_OMISSION"}, "b,c", 2},
		{"error code and differences", ItemQuery{ErrorCode: "RETRIEVAL_MISS", Differences: true}, "b", 1},
		{"error code nobody has", ItemQuery{ErrorCode: "OCR_TERM"}, "", 0},
		{"one item by id (exact, not a substring)", ItemQuery{ID: "b"}, "b", 1},
		{"id and another filter", ItemQuery{ID: "a", Failures: true}, "", 0},
		{"sorted by id, descending", ItemQuery{Sort: "id", Desc: true}, "e,d,c,b,a", 5},
		// r1 vs r2 differ on b, d, e: those first, each group as read
		{"differences first", ItemQuery{Sort: "differ"}, "b,d,e,a,c", 5},
		// ndcg@10 of r1: d 0, e 1; the others have none (last, as read)
		{"by metric of run A", ItemQuery{Sort: "metric:ndcg@10"}, "d,e,a,b,c", 5},
		{"by metric of run A, descending", ItemQuery{Sort: "metric:ndcg@10", Desc: true}, "e,d,a,b,c", 5},
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

func TestFindingsPage(t *testing.T) {
	l := finding.List{
		{Severity: finding.Error, Code: "a.x", Path: "f1", Line: 1},
		{Severity: finding.Warning, Code: "a.y", Path: "f1", Line: 2},
		{Severity: finding.Error, Code: "a.x", Path: "f2", Line: 3},
		{Severity: finding.Info, Code: "b.z", Path: "f2", Line: 4},
	}
	lines := func(p FindingPage) string {
		var s []string
		for _, f := range p.Findings {
			s = append(s, fmt.Sprint(f.Line))
		}
		return strings.Join(s, ",")
	}
	tests := []struct {
		name    string
		q       FindingQuery
		want    string
		matches int
	}{
		// severity first by default: errors (lines 1, 3) before the
		// warning (2) and the info (4), each in reported order
		{"all", FindingQuery{}, "1,3,2,4", 4},
		{"as reported", FindingQuery{Sort: "order"}, "1,2,3,4", 4},
		{"as reported, reversed", FindingQuery{Sort: "order", Desc: true}, "4,3,2,1", 4},
		{"least severe first", FindingQuery{Desc: true}, "4,2,1,3", 4},
		{"rule", FindingQuery{Sort: "rule"}, "1,3,2,4", 4},
		{"where, descending", FindingQuery{Sort: "where", Desc: true}, "4,3,2,1", 4},
		{"severity", FindingQuery{Severity: "error"}, "1,3", 2},
		{"code", FindingQuery{Code: "b.z"}, "4", 1},
		{"path", FindingQuery{Path: "f1"}, "1,2", 2},
		{"combined", FindingQuery{Severity: "error", Path: "f2"}, "3", 1},
		{"page", FindingQuery{Offset: 1, Limit: 2}, "3,2", 4},
		{"page past the end", FindingQuery{Offset: 9, Limit: 2}, "", 4},
		{"nothing", FindingQuery{Code: "nope"}, "", 0},
	}
	for _, tc := range tests {
		p := FindingsPage(l, tc.q)
		if got := lines(p); got != tc.want || p.Matches != tc.matches || p.Total != 4 {
			t.Errorf("%s: lines %q matches %d, want %q %d", tc.name, got, p.Matches, tc.want, tc.matches)
		}
		// Facets list every code and path, whatever the filter.
		if strings.Join(p.Codes, ",") != "a.x,a.y,b.z" || strings.Join(p.Paths, ",") != "f1,f2" {
			t.Errorf("%s: facets %v %v", tc.name, p.Codes, p.Paths)
		}
	}
}

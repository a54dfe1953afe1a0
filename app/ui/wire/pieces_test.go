package wire

import (
	"bytes"
	"strings"
	"testing"

	"eval752/app/report"
)

// TestSplitReportRoundTrip: a report split into head and sections and
// joined again writes the same JSON as the report itself (items aside,
// which never cross), and the head alone holds no section.
func TestSplitReportRoundTrip(t *testing.T) {
	v := 0.5
	r := &report.Report{
		Kind: "score", Title: "Scores", Config: []report.KV{{Key: "seed", Value: "42"}},
		Sections: []report.Section{
			{ID: "a", Title: "A", Text: []string{"first"}, Tables: []report.Table{{ID: "t", Columns: []report.Column{{Key: "m", Label: "metric"}},
				Rows: [][]report.Cell{{{Text: "acc"}}, {{Metric: "acc", Value: &v}}}}}},
			{ID: "b", Notes: []string{"a note"}},
		},
		Items: []report.ItemDetail{{ID: "x"}},
	}
	head, secs, err := SplitReport(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) != 2 || strings.Contains(head, `"first"`) || strings.Contains(head, `"x"`) {
		t.Fatalf("head %s, %d sections: the head must hold no section or item", head, len(secs))
	}
	got, err := JoinReport(head, secs)
	if err != nil {
		t.Fatal(err)
	}
	want := *r
	want.Items = nil
	var a, b bytes.Buffer
	if err := got.WriteJSON(&a); err != nil {
		t.Fatal(err)
	}
	if err := want.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("joined report differs:\n%s\nwant\n%s", a.String(), b.String())
	}
	if _, err := JoinReport(head, []string{`{"id":`}); err == nil {
		t.Error("a broken section decoded without error")
	}
}

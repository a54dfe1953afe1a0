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
	// a table of 2.5 parts of rows: it crosses in 3 row parts
	var long [][]report.Cell
	for i := 0; i < RowsPerPart*5/2; i++ {
		x := float64(i)
		long = append(long, []report.Cell{{Metric: "m", Value: &x}})
	}
	r := &report.Report{
		Kind: "score", Title: "Scores", Config: []report.KV{{Key: "seed", Value: "42"}},
		Sections: []report.Section{
			{ID: "a", Title: "A", Text: []string{"first"}, Tables: []report.Table{{ID: "t", Columns: []report.Column{{Key: "m", Label: "metric"}},
				Rows: [][]report.Cell{{{Text: "acc"}}, {{Metric: "acc", Value: &v}}}}}},
			{ID: "b", Notes: []string{"a note"}, Tables: []report.Table{{ID: "long", Rows: long}, {ID: "empty"}}},
		},
		Items: []report.ItemDetail{{ID: "x"}},
	}
	head, secs, err := SplitReport(r)
	if err != nil {
		t.Fatal(err)
	}
	// parts: section a, its table, 1 row part; section b, table long, 3
	// row parts, table empty
	if len(secs) != 9 || strings.Contains(head, `"first"`) || strings.Contains(head, `"x"`) {
		t.Fatalf("head %s, %d parts (want 9): the head must hold no section or item", head, len(secs))
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
	if _, err := JoinReport(head, []string{`{"s":`}); err == nil {
		t.Error("a broken part decoded without error")
	}
	if _, err := JoinReport(head, secs[:len(secs)-2]); err == nil {
		t.Error("a report cut inside a table's rows joined without error")
	}
	// a joiner shows a table only once all its rows are in, and drops the
	// section it is told to
	j, err := NewJoiner(head)
	if err != nil {
		t.Fatal(err)
	}
	j.Drop = "a"
	for i, s := range secs[:7] {
		if _, err := j.Add(s); err != nil {
			t.Fatalf("part %d: %v", i, err)
		}
	}
	if len(j.R.Sections) != 1 || j.R.Sections[0].ID != "b" || len(j.R.Sections[0].Tables) != 0 {
		t.Errorf("after 2 of 3 row parts of table long: %+v", j.R.Sections)
	}
	j.Add(secs[7])
	if len(j.R.Sections[0].Tables) != 1 || len(j.R.Sections[0].Tables[0].Rows) != len(long) {
		t.Errorf("after the last row part: %d tables", len(j.R.Sections[0].Tables))
	}
}

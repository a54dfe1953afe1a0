package report

import (
	"bytes"
	"encoding/csv"
	"math"
	"strings"
	"testing"
)

func sample() *Report {
	return &Report{
		Kind:   "score",
		Title:  "t",
		Tool:   Tool{Name: "eval752", Version: "0"},
		Config: []KV{{Key: "seed", Value: "42"}},
		Sections: []Section{{
			ID: "s", Title: "S",
			Tables: []Table{{
				ID:      "tb",
				Columns: []Column{{Key: "metric", Label: "metric"}, {Key: "a", Label: "run a"}},
				Rows: [][]Cell{{
					{Text: "recall@10"},
					{Metric: "recall@10", Stratum: "all", Run: "a", Value: F(0.75), N: I(3), Denom: I(4),
						CILow: F(0.5), CIHigh: F(1), Threshold: "≥ 0.90", Pass: B(false), Flag: "unjudged: 1 item"},
				}},
			}},
		}},
	}
}

// The one-line form carries every element the seeds require beside a number:
// value, CI, n/denominator, threshold with its verdict, and flags.
func TestCellString(t *testing.T) {
	c := sample().Sections[0].Tables[0].Rows[0][1]
	want := "0.7500 [0.5000, 1.0000] n=3/4 ≥ 0.90 FAIL [unjudged: 1 item]"
	if got := c.String(); got != want {
		t.Fatalf("cell = %q\nwant   %q", got, want)
	}
	if got := (Cell{Metric: "x"}).String(); got != "n/a" {
		t.Fatalf("empty metric cell = %q", got)
	}
	if got := (Cell{Value: F(12), Int: true}).FormatValue(); got != "12" {
		t.Fatalf("int cell = %q", got)
	}
	// 4 digits: 5.62e-07 (McNemar χ² with b = 27, c = 0) is not "0.0000";
	// 0.00005 rounds to 0.0001 and prints as such; 0 stays 0.0000
	for v, want := range map[float64]string{5.62e-07: "<0.0001", -3e-05: ">-0.0001", 0.00005: "0.0001", 0: "0.0000", 0.0123: "0.0123"} {
		if got := (Cell{Value: F(v)}).FormatValue(); got != want {
			t.Errorf("FormatValue(%g) = %q, want %q", v, got, want)
		}
	}
}

func TestRenderers(t *testing.T) {
	r := sample()
	var md, txt, cs bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| recall@10 | 0.7500 [0.5000, 1.0000] n=3/4 ≥ 0.90 FAIL [unjudged: 1 item] |") {
		t.Errorf("markdown row missing:\n%s", md.String())
	}
	if err := r.WriteText(&txt); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "config: seed = 42") {
		t.Errorf("text lacks config:\n%s", txt.String())
	}
	if err := r.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// header + 2 cells of the one row + provenance: the tool and the one
	// configuration entry (the sample cites no inputs)
	if len(recs) != 5 {
		t.Fatalf("csv has %d records, want 5", len(recs))
	}
	if p := recs[3]; p[0] != "provenance" || p[1] != "tool" || p[3] != "version" {
		t.Errorf("csv provenance record = %q", p)
	}
	if p := recs[4]; p[0] != "provenance" || p[1] != "config" || p[2] != "seed" || p[4] != "42" {
		t.Errorf("csv config record = %q", p)
	}
	got := recs[2]
	if got[5] != "0.75" || got[6] != "0.5" || got[7] != "1" || got[8] != "3" || got[9] != "4" || got[11] != "false" || got[13] != "recall@10" {
		t.Errorf("csv cell record = %q", got)
	}
}

func TestDisplayWidth(t *testing.T) {
	// CJK characters take two terminal columns each.
	if w := displayWidth("资料ab"); w != 6 {
		t.Fatalf("width = %d, want 6", w)
	}
}

// TestCSVNumber: 6 significant digits, whole numbers exact, no exponent
// (values worked by hand: 11/15 = 0.7333…, 1/81000 = 0.0000123456…).
func TestCSVNumber(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{11.0 / 15, "0.733333"},
		{1.0 / 81000, "0.0000123457"},
		{150, "150"},
		{1234567, "1234567"},
		{1234567.891, "1234570"},
		{-2.5, "-2.5"},
		{0.1 + 0.2, "0.3"},
		{math.Copysign(0, -1), "0"},
		{math.NaN(), ""},
	} {
		if got := CSVNumber(tc.v); got != tc.want {
			t.Errorf("CSVNumber(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// TestWriteItemsCSV: one row per item and run, an item without runs gets
// one row, the metric columns are the union of every run's, sorted.
func TestWriteItemsCSV(t *testing.T) {
	yes, no := true, false
	items := []ItemDetail{
		{ID: "q1", Path: "a.jsonl", Line: 1, Question: "2+2?", Reference: "4", Strata: map[string]string{"split": "test", "type": "mcq"},
			Runs: []RunItem{{Run: "A", Response: "4", Correct: &yes, Scores: ValuesOf(map[string]float64{"answer.correct": 1})},
				{Run: "B", Response: "5", Correct: &no, Flags: []string{"x", "y"}, Scores: ValuesOf(map[string]float64{"answer.correct": 0, "ndcg@10": 2.0 / 3})}}},
		{ID: "q2", Path: "a.jsonl", Line: 2},
		{ID: "q3", Path: "a.jsonl", Line: 3, Runs: []RunItem{{Run: "A", Missing: true}}},
	}
	var b bytes.Buffer
	if err := WriteItemsCSV(&b, items); err != nil {
		t.Fatal(err)
	}
	want := "item,run,path,line,strata,question,reference,answer,verdict,flags,answer.correct,ndcg@10\n" +
		"q1,A,a.jsonl,1,split=test; type=mcq,2+2?,4,4,correct,,1,\n" +
		"q1,B,a.jsonl,1,split=test; type=mcq,2+2?,4,5,incorrect,x; y,0,0.666667\n" +
		"q2,,a.jsonl,2,,,,,,,,\n" +
		"q3,A,a.jsonl,3,,,,,missing,,,\n"
	if b.String() != want {
		t.Errorf("items CSV\n%s\nwant\n%s", b.String(), want)
	}
}

// TestCSVFormulaGuard: a free-text cell that a spreadsheet would evaluate
// (=, +, -, @, tab, CR first: OWASP's CSV-injection list) is written with a
// leading apostrophe; other text and the number columns are unchanged.
func TestCSVFormulaGuard(t *testing.T) {
	for in, want := range map[string]string{
		"=1+1": "'=1+1", "+SUM(A1)": "'+SUM(A1)", "-5": "'-5", "@cmd": "'@cmd", "\tx": "'\tx", "\rx": "'\rx",
		"plain": "plain", "": "", "a=1": "a=1", "北京": "北京",
	} {
		if got := CSVText(in); got != want {
			t.Errorf("CSVText(%q) = %q, want %q", in, got, want)
		}
	}
	var b strings.Builder
	correct := true
	items := []ItemDetail{{ID: "q1", Question: "=HYPERLINK(\"x\")", Reference: "42",
		Runs: []RunItem{{Run: "r", Response: "=1+1", Correct: &correct, Scores: ValuesOf(map[string]float64{"delta": -0.5})}}}}
	if err := WriteItemsCSV(&b, items); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{`"'=HYPERLINK(""x"")"`, `'=1+1`, `,-0.5`} {
		if !strings.Contains(out, want) {
			t.Errorf("items CSV lacks %s:\n%s", want, out)
		}
	}
}

package audit

import (
	"bytes"
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"eval752/app/finding"
)

var update = flag.Bool("update", false, "rewrite golden files")

// plantedFindings are the outcomes testdata/fixture was written to produce
// (see testdata/fixture/README.md): one finding per planted problem, and
// nothing else. Each entry is "code@where" with where the question id, or
// "file:line" for a set-level or document finding (line 0 = whole file).
var plantedFindings = []string{
	"v2.v1-in-test@D04",                      // v1 question placed in test
	"v2.answer-not-verbatim@D12",             // answer drops 「的显著位置」 and 「存在的…和防控措施」 from 第四条
	"audit.leak-question-copy@D13",           // 「请问，」 + dev question D10
	"v2.ngram-coverage@C03",                  // v1 paraphrase of 第十一条: 6.1 % of its 4-grams in the clause
	"v2.clause-reuse@C06",                    // C04, C05, C06 all cite reg-safety 第十条 (3 > 2)
	"v2.cross-provenance@X16",                // cross question with one provenance
	"audit.refusal-similar@R04",              // the answer sits in pat-inj-02 (seed 002's R12)
	"audit.leak-doc-near@documents.jsonl:2",  // OCR copy of the dev accident report in test
	"v2.doc-concentration@questions.jsonl:0", // v1 citations: 9 of 11 from reg-safety
	"v2.split-counts@questions.jsonl:0",      // info: counts per split
}

func where(f finding.Finding, ids map[int]string) string {
	base := f.Path[strings.LastIndex(f.Path, "/")+1:]
	if base == "questions.jsonl" && f.Line > 0 {
		return ids[f.Line]
	}
	return base + ":" + strconv.Itoa(f.Line)
}

func TestFixtureFindingsExactlyWherePlanted(t *testing.T) {
	ds := fixture(t)
	_, fs := Audit(withFiles(ds), DefaultOptions())
	got, want := foundAndPlanted(fs, ds)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings differ\n got: %q\nwant: %q", got, want)
		for _, f := range fs {
			t.Log(f.String())
		}
	}
	// Messages carry the numbers a reviewer needs.
	for _, f := range fs {
		switch f.Code {
		case "v2.doc-concentration":
			// 9 of 11 v1 citations: D01–D03, C01–C03 (6), X01 (2), X02 (1) cite reg-safety; D04 and X02's second cite the others.
			if !strings.Contains(f.Message, "v1 questions: 9 of 11 citations (81.8 %) come from reg-safety") {
				t.Errorf("concentration message: %s", f.Message)
			}
		case "v2.clause-reuse":
			if !strings.Contains(f.Message, "(C04, C05, C06)") {
				t.Errorf("reuse message: %s", f.Message)
			}
		case "v2.split-counts":
			// 64 questions: dev 30 / test 34, as written in the fixture generator table.
			if !strings.Contains(f.Message, "64 questions: dev 30") || !strings.Contains(f.Message, "test 34") {
				t.Errorf("split counts: %s", f.Message)
			}
		}
	}
}

// The planted answerable "refuse" question R04 ranks first and its passage
// (the injection-moulding parameters of pat-inj-02) is shown; it is the only
// flagged one.
func TestFixtureRefusalRanking(t *testing.T) {
	ds := fixture(t)
	opt := DefaultOptions().withDefaults()
	ref, _ := refusalAudit(withFiles(ds), queries(withFiles(ds)), corpusPassages(withFiles(ds)), opt)
	if len(ref.Refuse) != 16 {
		t.Fatalf("refuse questions = %d, want 16 (R01–R16)", len(ref.Refuse))
	}
	top := ref.Refuse[0]
	if top.Q.ID != "R04" || top.Passage == nil || top.Passage.Doc != "pat-inj-02" || !strings.Contains(top.Passage.Text, "料筒温度") {
		t.Fatalf("top = %s %+v", top.Q.ID, top.Passage)
	}
	for i, r := range ref.Refuse {
		if r.Flagged != (i == 0) {
			t.Errorf("%s flagged=%v (sim %.3f)", r.Q.ID, r.Flagged, r.Sim)
		}
	}
	if len(ref.Answerable) != 48 {
		t.Errorf("answerable = %d, want 48", len(ref.Answerable))
	}
	r, _ := Audit(withFiles(ds), DefaultOptions())
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| 1 | R04 |") || !strings.Contains(md.String(), "料筒温度自后段至喷嘴依次为180℃") {
		t.Error("markdown report does not show R04 first with its passage")
	}
}

// Leakage pairs are shown side by side: the D10/D13 copy and the accident
// report / its OCR version.
func TestFixtureLeakagePairs(t *testing.T) {
	ds := fixture(t)
	opt := DefaultOptions().withDefaults()
	qs := queries(withFiles(ds))
	pairs, _ := leakage(withFiles(ds), qs, corpusPassages(withFiles(ds)), opt)
	got := map[string]bool{}
	for _, p := range pairs {
		got[p.Kind+":"+p.LeftID+"|"+p.LeftSplit+"→"+p.RightID+"|"+p.RightSplit] = true
	}
	want := []string{"document:acc-report-01|dev→acc-report-01-ocr|test", "question:D10|dev→D13|test"}
	if len(got) != len(want) {
		t.Errorf("pairs = %v, want %v", got, want)
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("missing pair %s (got %v)", w, got)
		}
	}
}

// The Markdown report of the fixture is stable byte for byte (MinHash
// seeds, sorted tables); docs/audit.md quotes it.
func TestFixtureGoldenMarkdown(t *testing.T) {
	ds := fixture(t)
	r, _ := Audit(withFiles(ds), DefaultOptions())
	var a, b bytes.Buffer
	if err := r.WriteMarkdown(&a); err != nil {
		t.Fatal(err)
	}
	r2, _ := Audit(withFiles(fixture(t)), DefaultOptions())
	if err := r2.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatal("two runs differ")
	}
	golden := "testdata/fixture.audit.md"
	if *update {
		if err := os.WriteFile(golden, a.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update once)", err)
	}
	if string(want) != a.String() {
		t.Errorf("report differs from %s; rerun with -update after checking the diff", golden)
	}
}

// The coverage table of the fixture, counted by hand from the generator's
// tables: reg-safety has 第一条–第十四条 (14), of which 第一条 and 第二条 are never
// cited (12 covered); its citations are v1 9 + new 18 = 27 of 63. guide-duty
// has 12 index lines but 10 distinct numbers (第五条 and 第八条 appear twice).
func TestFixtureCoverageTable(t *testing.T) {
	ds := fixture(t)
	tab := docCoverageTable(withFiles(ds), typedV2(withFiles(ds)))
	want := map[string][4]float64{ // clauses, covered, citations, share %
		"reg-safety":   {14, 12, 27, 100 * 27.0 / 63},
		"reg-confined": {10, 9, 20, 100 * 20.0 / 63},
		"guide-duty":   {10, 10, 16, 100 * 16.0 / 63},
		"pat-inj-02":   {0, 0, 0, 0},
		"total":        {34, 31, 63, 100},
	}
	if len(tab.Rows) != len(want) {
		t.Fatalf("rows = %d", len(tab.Rows))
	}
	for _, row := range tab.Rows {
		w, ok := want[row[0].Text]
		if !ok {
			t.Errorf("unexpected row %s", row[0].Text)
			continue
		}
		got := [4]float64{*row[2].Value, *row[3].Value, *row[5].Value, *row[6].Value}
		for i := range got {
			if d := got[i] - w[i]; d > 1e-9 || d < -1e-9 {
				t.Errorf("%s column %d = %v, want %v", row[0].Text, i, got[i], w[i])
			}
		}
	}
}

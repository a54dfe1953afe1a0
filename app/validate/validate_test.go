package validate

import (
	"fmt"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/model"
)

// TestRules runs every fixture table, then checks that every rule of this
// package was seen both firing and staying silent (SPEC: "every rule has a
// test fixture that triggers it and one that does not").
func TestRules(t *testing.T) {
	for _, table := range [][]ruleCase{idCases, itemCases, assetCases, bundleCases, resultCases, trecCases, b2Cases, ragCases, configCases, fidelityCases} {
		runCases(t, table)
	}
	for _, r := range Rules() {
		cv := covered[r.Code]
		if !cv[0] {
			t.Errorf("rule %s has no fixture that triggers it", r.Code)
		}
		if !cv[1] {
			t.Errorf("rule %s has no fixture on which it stays silent", r.Code)
		}
	}
}

func TestRegistry(t *testing.T) {
	for _, r := range Rules() {
		if r.Description == "" || r.Source == "" || r.Hint == "" || r.Family == "" {
			t.Errorf("rule %s lacks a description, source, hint or family: %+v", r.Code, r)
		}
		if !strings.HasPrefix(r.Code, r.Family+".") && !(r.Family == "ids" && strings.HasPrefix(r.Code, "id.")) {
			t.Errorf("rule %s is not named after its family %s", r.Code, r.Family)
		}
		if g, ok := finding.Lookup(r.Code); !ok || g.Code != r.Code {
			t.Errorf("rule %s is not in the global registry", r.Code)
		}
	}
}

// TestRunNormalises: Run's output is sorted and free of exact duplicates,
// and a nil or empty dataset gives nothing.
func TestRunNormalises(t *testing.T) {
	if got := Run(nil, DefaultOptions()); len(got) != 0 {
		t.Errorf("Run(nil) = %v", got)
	}
	if got := Run(&dataset.Dataset{}, DefaultOptions()); len(got) != 0 {
		t.Errorf("Run(empty) = %v", got)
	}
	ds := items(goodMCQ, patch(goodMCQ, "answer", "B"), patch(goodMCQ, "answer", "B"), patch(goodMCQ, "inputs/text", ""))()
	got := Run(withFiles(ds), DefaultOptions())
	for i := 1; i < len(got); i++ {
		if finding.Less(got[i], got[i-1]) {
			t.Errorf("findings out of order at %d:\n%s", i, dump(got))
		}
		if got[i] == got[i-1] {
			t.Errorf("duplicate finding %v", got[i])
		}
	}
	if len(got) == 0 {
		t.Fatal("no findings on a bad set")
	}
}

// TestUntypedSkipped: a record that failed to decode (the schema check
// reports it) is not checked again by the typed rules.
func TestUntypedSkipped(t *testing.T) {
	ds := items(`{"id":"q1","type":"mcq_single","inputs":{"text":""},"choices":"not an array","answer":"x"}`)()
	if ds.Items[0].Typed {
		t.Fatal("fixture should not decode")
	}
	if got := Run(withFiles(ds), DefaultOptions()); len(got) != 0 {
		t.Errorf("untyped record produced findings:\n%s", dump(got))
	}
}

// TestBadInputNoPanic throws odd but decodable values at every rule.
func TestBadInputNoPanic(t *testing.T) {
	odd := []string{
		`{}`,
		`{"gold":[{"region":null}],"modality":"video"}`,
		`{"gold":[{"region":{"bbox":"x"}}],"modality":"ui_screenshot"}`,
		`{"gold":[{"region":{"t_start":"a","t_end":[]}}],"modality":"video"}`,
		`{"gold":[{"region":{"path":7}}],"modality":"code"}`,
		`{"gold":[{"region":{"page":1e400}}],"modality":"pdf"}`,
		`{"answer":{"a":1},"answer_format":"list"}`,
	}
	ds := b2(odd...)()
	_ = Run(withFiles(ds), DefaultOptions())
	ds2 := ragDS(ragFiles{questions: []string{`{"qid":"q","gold_evidence_groups":[{"char_start":5,"char_end":100000,"evidence_text":"a"}]}`},
		docs: []string{`{"doc_id":"","text":""}`}, pages: []string{`{"doc_id":"","page_no":1,"char_start":90,"char_end":10,"text":"abc"}`}})()
	_ = Run(withFiles(ds2), DefaultOptions())
}

// TestOneDefectOneFinding: a rule stays silent at a value the schema already
// reported (same file, line and pointer); at another value it still reports.
func TestOneDefectOneFinding(t *testing.T) {
	ds := newDS(model.FormatRAGQuestion)
	ds.RAG = append(ds.RAG,
		rec[model.RAGQuestion]("q.jsonl", 1, patch(goodRAG, "gold_evidence_groups/0/page_no", raw(`0`))),
		rec[model.RAGQuestion]("q.jsonl", 2, patch(goodRAG, "qid", "q2", "gold_evidence_groups/0/page_no", raw(`0`))))
	// the reader's schema check reported line 1's page_no (as formats.Validate does)
	ds.Findings = finding.List{{Severity: finding.Error, Code: "schema.range", Path: "q.jsonl", Line: 1,
		Pointer: "/gold_evidence_groups/0/page_no", Message: "must be >= 1 but found 0"}}
	var got []string
	for _, f := range Run(withFiles(ds), DefaultOptions()) {
		if f.Code == "rag.page" {
			got = append(got, fmt.Sprintf("%s:%d:%s", f.Path, f.Line, f.Pointer))
		}
	}
	if want := "q.jsonl:2:/gold_evidence_groups/0/page_no"; len(got) != 1 || got[0] != want {
		t.Errorf("rag.page findings %v, want only %s", got, want)
	}
}

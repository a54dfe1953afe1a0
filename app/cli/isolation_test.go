package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/engine"
)

// isolationFiles lays out a seed-003 set that leaks across splits (seed 003
// §3.3 同一重复族必须进入同一数据划分, §4.5 Gold 问答…绝不能写进 RAG 知识库):
//
//	documents.jsonl:2 d1-scan (test) has d1's (train) exact text and family f1
//	  → audit.leak-doc-exact (error) and audit.leak-family-split (error)
//	documents.jsonl:4 d4 (test) is d2 (dev) with one character changed
//	  → audit.leak-doc-near (warning): without punctuation each text has 138
//	  distinct 5-shingles, the change swaps 5 of them, Jaccard = 133/143 =
//	  0.930 ≥ seed 003's 0.92
//	questions.jsonl:1 q4: its question and answer both stand in d5's text
//	  → audit.leak-gold-in-corpus (error)
//
// Every document carries a bound approval and q4's anchor is valid, so no
// other rule fires.
func isolationFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	geo := "演示矿区位于示例地区北部，出露地层以侏罗系火山岩为主，斑岩体呈岩株状侵入，蚀变分带自内向外依次为钾化带、绢英岩化带和青磐岩化带，铜矿化主要赋存于绢英岩化带中。"
	long := "示例岩体为晚侏罗世侵入的花岗闪长斑岩，岩体边部发育细粒冷凝边，内部为中粗粒结构，斜长石环带清楚。" +
		"区内断裂以北东向为主，次为北西向，两组断裂交汇部位控制了矿体的产出。钻孔ZK0801揭示矿体视厚度42米，平均铜品位0.62%，伴生钼0.031%。" +
		"围岩蚀变强烈，黄铁矿化普遍，局部见辉钼矿细脉，石英脉宽一至三厘米，沿裂隙充填。"
	near := strings.Replace(long, "清楚。", "清晰。", 1)
	doc := func(id, split, fam, text string) string {
		return `{"doc_id":"` + id + `","title":"` + id + `","review_state":"CLOUD_APPROVED",` + boundApproval +
			`,"split":"` + split + `","duplicate_family_id":"` + fam + `","text":"` + text + `"}`
	}
	docs := []string{
		doc("d1", "train", "f1", geo),
		doc("d1-scan", "test", "f1", geo),
		doc("d2", "dev", "f2", long),
		doc("d4", "test", "f4", near),
		doc("d5", "train", "f5", "FAQ：斑岩铜矿常见哪些蚀变找矿标志？答：钾化、绢英岩化和青磐岩化分带。"),
	}
	q := `{"qid":"q4","query":"斑岩铜矿常见哪些蚀变找矿标志？","answerable":true,"reference_answer":"钾化、绢英岩化和青磐岩化分带",` +
		`"gold_evidence_groups":[{"required":true,"doc_id":"d2","char_start":0,"char_end":5}],"split":"test"}`
	os.WriteFile(filepath.Join(dir, "documents.jsonl"), []byte(strings.Join(docs, "\n")+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "questions.jsonl"), []byte(q+"\n"), 0o644)
	return dir
}

var isolationWant = []string{
	"documents.jsonl:2:/duplicate_family_id audit.leak-family-split error",
	"documents.jsonl:2:/text audit.leak-doc-exact error",
	"documents.jsonl:4:/text audit.leak-doc-near warning",
	"questions.jsonl:1:/query audit.leak-gold-in-corpus error",
}

// TestValidateSplitIsolation: `validate` runs the split-isolation gates
// with their severities and exits 1 on their errors (issue 11 item 2; SPEC
// §3). Before, only `audit` reported them and `validate` exited 0.
func TestValidateSplitIsolation(t *testing.T) {
	dir := isolationFiles(t)
	code, out, errs := runCLI(t, "validate", "--json", filepath.Join(dir, "documents.jsonl"), filepath.Join(dir, "questions.jsonl"))
	if code != ExitErrors {
		t.Fatalf("validate: exit %d, want %d\n%s%s", code, ExitErrors, out, errs)
	}
	var v struct {
		Findings []struct {
			Severity, Code, Path, Pointer string
			Line                          int
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range v.Findings {
		got = append(got, filepath.Base(f.Path)+":"+strconv.Itoa(f.Line)+":"+f.Pointer+" "+f.Code+" "+f.Severity)
	}
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(isolationWant, "\n") {
		t.Errorf("validate findings:\n got  %q\n want %q", got, isolationWant)
	}
}

// TestEvaluateSplitIsolation: the page's engine call shows the same
// findings as validation findings, and the audit still lists the pairs in
// its leakage table and counts each finding once (the pass is not run twice:
// Audit takes SplitIsolation's result).
func TestEvaluateSplitIsolation(t *testing.T) {
	dir := isolationFiles(t)
	var inputs []dataset.Input
	for _, n := range []string{"documents.jsonl", "questions.jsonl"} {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, dataset.Input{Name: n, R: bytes.NewReader(b), Size: int64(len(b))})
	}
	opt := engine.DefaultOptions()
	opt.SkipScore = true
	res, err := engine.Evaluate(context.Background(), inputs, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	count := func(fs []string) map[string]int {
		m := map[string]int{}
		for _, f := range fs {
			m[f]++
		}
		return m
	}
	var val, aud []string
	for _, f := range res.Findings {
		val = append(val, f.Code)
	}
	for _, f := range res.AuditFindings {
		aud = append(aud, f.Code)
	}
	want := map[string]int{"audit.leak-family-split": 1, "audit.leak-doc-exact": 1, "audit.leak-doc-near": 1, "audit.leak-gold-in-corpus": 1}
	for code, n := range want {
		if count(val)[code] != n || count(aud)[code] != n {
			t.Errorf("%s: %d validation finding(s), %d audit finding(s); want %d each", code, count(val)[code], count(aud)[code], n)
		}
	}
	pairs := 0
	for _, s := range res.Audit.Sections {
		for _, tb := range s.Tables {
			if tb.ID == "leak-pairs" {
				pairs = len(tb.Rows)
			}
		}
	}
	if pairs != 4 {
		t.Errorf("audit leakage table has %d pairs, want 4 (exact, family, near, gold)", pairs)
	}
}

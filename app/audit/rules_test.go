package audit

import (
	"sort"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/model"
)

// Small hand-built sets: each case plants one problem (or its look-alike
// that must stay silent) and lists the codes expected at each line.

func v2q(line int, id, cat, split, origin string, answer *string, joint bool, prov ...string) dataset.Rec[model.V2Question] {
	var ps []model.V2Provenance
	for _, p := range prov {
		d, c, _ := strings.Cut(p, " ")
		ps = append(ps, model.V2Provenance{Doc: d, Clause: c})
	}
	return dataset.Rec[model.V2Question]{Loc: testFiles.At("q.jsonl", line, 0), Typed: true,
		V: model.V2Question{ID: id, Category: cat, Question: "问题" + id + "是什么？", Answer: answer, Provenance: ps, Joint: joint, Split: split, Origin: origin}}
}

func clause(line int, doc, no, text string) dataset.Rec[model.Clause] {
	return dataset.Rec[model.Clause]{Loc: testFiles.At("c.jsonl", line, 0), Typed: true, V: model.Clause{Doc: doc, Clause: no, Text: text}}
}

// codesAt lists findings as "line:code" (line 0 for set-level), sorted.
func codesAt(fs finding.List, skip ...string) []string {
	var out []string
next:
	for _, f := range fs {
		for _, s := range skip {
			if f.Code == s {
				continue next
			}
		}
		out = append(out, f.Path+":"+itoaT(f.Line)+":"+f.Code)
	}
	sort.Strings(out)
	return out
}

func itoaT(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoaT(i/10) + string(rune('0'+i%10))
}

// setLevel codes every small case also produces (counts, quotas): they are
// tested on their own below.
var setLevel = []string{"v2.split-counts", "v2.quota"}

func TestGateRules(t *testing.T) {
	idx := []dataset.Rec[model.Clause]{
		clause(1, "law", "第一条", "甲应当做A。甲不得做B。"),
		clause(2, "law", "第二条", "乙应当做C。"),
		clause(3, "guide", "第五条", "丙应当做D。丙应当做E。"),
		clause(4, "guide", "第五条", "丁应当做F。丙应当做E。"), // same number, different body, shares 「丙应当做E。」
		clause(5, "guide", "第八条", "戊应当做G。"),
		clause(6, "guide", "第八条", "戊应当 做G。\n"), // the same body typeset again
	}
	cases := []struct {
		name string
		qs   []dataset.Rec[model.V2Question]
		want []string
	}{
		{"verbatim answers with whitespace and full-width differences are silent", []dataset.Rec[model.V2Question]{
			v2q(1, "D1", "direct", "test", "v2", str("甲应当做Ａ。"), false, "law 第一条"),
			v2q(2, "X1", "cross", "test", "v2", str("甲不得做B；乙应当 做C。"), true, "law 第一条", "law 第二条"),
		}, nil},
		{"answer not verbatim", []dataset.Rec[model.V2Question]{
			v2q(1, "D1", "direct", "test", "v2", str("甲必须做A。"), false, "law 第一条"),
		}, []string{"q.jsonl:1:v2.answer-not-verbatim"}},
		{"each sentence is checked: the second is missing", []dataset.Rec[model.V2Question]{
			v2q(1, "D1", "direct", "test", "v2", str("甲应当做A；甲可以做Z"), false, "law 第一条"),
		}, []string{"q.jsonl:1:v2.answer-not-verbatim"}},
		{"cross: one provenance contributes nothing", []dataset.Rec[model.V2Question]{
			v2q(1, "X1", "cross", "test", "v2", str("甲应当做A；甲不得做B"), true, "law 第一条", "law 第二条"),
		}, []string{"q.jsonl:1:v2.cross-contribution"}},
		{"cross: one provenance and not joint", []dataset.Rec[model.V2Question]{
			v2q(1, "X1", "cross", "test", "v2", str("甲应当做A"), false, "law 第一条"),
		}, []string{"q.jsonl:1:v2.cross-joint", "q.jsonl:1:v2.cross-provenance"}},
		{"cross: the same provenance twice is one", []dataset.Rec[model.V2Question]{
			v2q(1, "X1", "cross", "test", "v2", str("甲应当做A"), true, "law 第一条", "law 第一条"),
		}, []string{"q.jsonl:1:v2.cross-provenance"}},
		{"duplicate number resolved by the answer: silent", []dataset.Rec[model.V2Question]{
			v2q(1, "D1", "direct", "test", "v2", str("丁应当做F。"), false, "guide 第五条"),
		}, nil},
		{"duplicate number: the answer fits both distinct bodies", []dataset.Rec[model.V2Question]{
			v2q(1, "D1", "direct", "test", "v2", str("丙应当做E。"), false, "guide 第五条"),
		}, []string{"q.jsonl:1:v2.clause-ambiguous"}},
		{"identical re-typeset bodies do not count as two", []dataset.Rec[model.V2Question]{
			v2q(1, "D1", "direct", "test", "v2", str("戊应当做G。"), false, "guide 第八条"),
		}, nil},
		{"provenance missing: clause and document", []dataset.Rec[model.V2Question]{
			v2q(1, "D1", "direct", "test", "v2", str("甲应当做A"), false, "law 第九条"),
			v2q(2, "D2", "direct", "test", "v2", str("甲应当做A"), false, "nolaw 第一条"),
		}, []string{"q.jsonl:1:v2.provenance-missing", "q.jsonl:2:v2.provenance-missing"}},
		{"v1 paraphrase: coverage below 45 % warns, not-verbatim is not applied", []dataset.Rec[model.V2Question]{
			v2q(1, "D1", "direct", "dev", "v1", str("甲需要去完成A这件事"), false, "law 第一条"),
			v2q(2, "D2", "direct", "dev", "v1", str("甲应当做A，甲不得做B"), false, "law 第一条"),
		}, []string{"q.jsonl:1:v2.ngram-coverage"}},
		{"v1 in test", []dataset.Rec[model.V2Question]{
			v2q(1, "D1", "direct", "test", "v1", str("甲应当做A"), false, "law 第一条"),
		}, []string{"q.jsonl:1:v2.v1-in-test"}},
		{"refuse: null and phrase are fine; other answers and provenance are not", []dataset.Rec[model.V2Question]{
			v2q(1, "R1", "refuse", "test", "v2", nil, false),
			v2q(2, "R2", "refuse", "test", "v2", str(" 资料中没有相关信息。"), false),
			v2q(3, "R3", "refuse", "test", "v2", str("不知道"), false),
			v2q(4, "R4", "refuse", "test", "v2", nil, false, "law 第一条"),
		}, []string{"q.jsonl:3:v2.refuse-answer", "q.jsonl:4:v2.refuse-provenance"}},
		{"required fields and unknown category", []dataset.Rec[model.V2Question]{
			v2q(1, "D1", "direct", "", "v2", nil, false),
			v2q(2, "D2", "multiple", "test", "v3", str("x"), false),
			v2q(3, "D3", "direct", "test", "v2", str("资料中没有相关信息"), false, "law 第一条"),
		}, []string{"q.jsonl:1:v2.required-field", "q.jsonl:1:v2.required-field", "q.jsonl:1:v2.required-field",
			"q.jsonl:2:v2.category", "q.jsonl:2:v2.required-field", "q.jsonl:3:v2.required-field"}},
		{"clause reuse: 3 new questions of one category warn at the third; v1 and other categories do not count", []dataset.Rec[model.V2Question]{
			v2q(1, "C1", "conditional", "test", "v2", str("甲应当做A"), false, "law 第一条"),
			v2q(2, "C2", "conditional", "test", "v1", str("甲应当做A"), false, "law 第一条"),
			v2q(3, "D1", "direct", "test", "v2", str("甲应当做A"), false, "law 第一条"),
			v2q(4, "C3", "conditional", "test", "v2", str("甲不得做B"), false, "law 第一条"),
			v2q(5, "X1", "cross", "test", "v2", str("甲应当做A；乙应当做C"), true, "law 第一条", "law 第二条"),
			v2q(6, "C4", "conditional", "test", "v2", str("甲应当做A"), false, "law 第一条"),
		}, []string{"q.jsonl:2:v2.v1-in-test", "q.jsonl:6:v2.clause-reuse"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := &dataset.Dataset{V2: c.qs, Clauses: idx}
			got := codesAt(Rules(withFiles(ds), Options{}), setLevel...)
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("got %v\nwant %v", got, c.want)
				for _, f := range Rules(withFiles(ds), Options{}) {
					t.Log(f.String())
				}
			}
		})
	}
}

func TestClauseIndexMissingOnce(t *testing.T) {
	ds := &dataset.Dataset{V2: []dataset.Rec[model.V2Question]{
		v2q(1, "D1", "direct", "test", "v2", str("甲应当做A"), false, "law 第一条"),
		v2q(2, "D2", "direct", "test", "v2", str("甲应当做B"), false, "law 第二条"),
		v2q(3, "D3", "direct", "test", "v2", str("甲应当做C"), false, "law 第三条"),
	}}
	got := codesAt(Rules(withFiles(ds), Options{}), setLevel...)
	if want := []string{"q.jsonl:0:v2.clause-index-missing"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("got %v, want %v", got, want)
	}
	// An empty but present clause index is not "missing": the provenance check runs.
	ds.Has = map[model.Format]bool{model.FormatClause: true}
	got = codesAt(Rules(withFiles(ds), Options{}), setLevel...)
	if len(got) != 3 || !strings.HasSuffix(got[0], "v2.provenance-missing") {
		t.Errorf("with empty index: %v", got)
	}
}

func TestQuota(t *testing.T) {
	// 10 direct, 10 conditional, 10 cross, 2 refuse = 32 questions.
	// Shares: 10/32 = 31.25 % (|31.25 − 25| = 6.25 pp > 5) and 2/32 = 6.25 % (18.75 pp off):
	// all four categories warn with the default 25 % ± 5 pp.
	var qs []dataset.Rec[model.V2Question]
	line := 0
	add := func(cat string, n int) {
		for i := 0; i < n; i++ {
			line++
			qs = append(qs, v2q(line, cat+itoaT(i), cat, "test", "v2", nil, false))
		}
	}
	add("direct", 10)
	add("conditional", 10)
	add("cross", 10)
	add("refuse", 2)
	ds := &dataset.Dataset{V2: qs}
	var quota []string
	for _, f := range Rules(withFiles(ds), Options{}) {
		if f.Code == "v2.quota" {
			quota = append(quota, f.Message)
		}
	}
	if len(quota) != 4 || !strings.Contains(strings.Join(quota, "|"), "refuse: 2 of 32 questions (6.2 %)") {
		t.Errorf("quota findings: %q", quota)
	}
	// A tolerance of 7 pp leaves only refuse (18.75 pp off).
	quota = nil
	for _, f := range Rules(withFiles(ds), Options{QuotaTolerance: 0.07}) {
		if f.Code == "v2.quota" {
			quota = append(quota, f.Message)
		}
	}
	if len(quota) != 1 || !strings.HasPrefix(quota[0], "refuse:") {
		t.Errorf("quota findings at 7 pp: %q", quota)
	}
}

func TestConcentration(t *testing.T) {
	// 12 v2 questions: 7 cite doc a, 5 cite doc b → 7/12 = 58.3 % > 50 % for "all" and "new".
	var qs []dataset.Rec[model.V2Question]
	for i := 0; i < 12; i++ {
		doc := "a 第一条"
		if i >= 7 {
			doc = "b 第一条"
		}
		qs = append(qs, v2q(i+1, "D"+itoaT(i), "direct", "test", "v2", str("x"), false, doc))
	}
	ds := &dataset.Dataset{V2: qs}
	var msgs []string
	for _, f := range Rules(withFiles(ds), Options{}) {
		if f.Code == "v2.doc-concentration" {
			msgs = append(msgs, f.Message)
		}
	}
	want := []string{
		"all questions: 7 of 12 citations (58.3 %) come from a, above 50 %",
		"new (v2) questions: 7 of 12 citations (58.3 %) come from a, above 50 %",
	}
	if strings.Join(msgs, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", msgs, want)
	}
	// Bound 0.6 → silent; fewer than ConcentrationMin citations → silent.
	for _, opt := range []Options{{ConcentrationBound: 0.6}, {ConcentrationMin: 13}} {
		for _, f := range Rules(withFiles(ds), opt) {
			if f.Code == "v2.doc-concentration" {
				t.Errorf("%+v: unexpected %s", opt, f.Message)
			}
		}
	}
}

func TestDraft(t *testing.T) {
	idx := []dataset.Rec[model.Clause]{clause(1, "law", "第一条", "甲应当做A。")}
	qs := []dataset.Rec[model.V2Question]{
		v2q(1, "D1", "direct", "test", "v2", str("甲必须做A"), false, "law 第一条"),
		v2q(2, "C1", "conditional", "test", "v2", str("甲必须做A"), false, "law 第一条"),
		v2q(3, "D2", "direct", "test", "v2", str("甲应当做A"), false, "law 第一条"),
	}
	ds := &dataset.Dataset{V2: qs, Clauses: idx}
	got := codesAt(Draft(withFiles(ds), "direct", Options{DraftTarget: 25}))
	// D1 not verbatim; C1 skipped (one info); draft of 2 direct questions, target 25 → quota.
	want := []string{"q.jsonl:0:v2.draft-skipped", "q.jsonl:0:v2.quota", "q.jsonl:1:v2.answer-not-verbatim"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := codesAt(Draft(withFiles(ds), "bogus", Options{})); strings.Join(got, ",") != "q.jsonl:0:v2.category" {
		t.Errorf("unknown category: %v", got)
	}
}

// Every finding of the package comes from a registered rule with a seed source.
func TestRulesRegistered(t *testing.T) {
	rs := AuditRules()
	if len(rs) < 25 {
		t.Errorf("only %d rules registered", len(rs))
	}
	for _, r := range rs {
		if r.Source == "" || r.Description == "" || r.Hint == "" {
			t.Errorf("%s lacks source/description/hint", r.Code)
		}
		if r.Family == "v2" && !strings.HasPrefix(r.Source, "seed 002") {
			t.Errorf("%s: v2 gate rule without a seed 002 source", r.Code)
		}
	}
	ds := fixture(t)
	_, fs := Audit(withFiles(ds), DefaultOptions())
	for _, f := range fs {
		if _, ok := finding.Lookup(f.Code); !ok {
			t.Errorf("unregistered code %s", f.Code)
		}
	}
}

// TestSchemaCoveredNotRepeated: a v2 question whose provenance key is
// missing, and whose category the schema already rejected at /category, gets
// no v2.required-field / v2.category finding of its own (the reader's
// schema.required / schema.enum say it); the same defects on a record
// without those schema findings are still reported.
func TestSchemaCoveredNotRepeated(t *testing.T) {
	q1 := v2q(1, "D1", "trivia", "test", "v2", str("甲应当做A"), false)
	q1.Raw = map[string]any{"id": "D1", "category": "trivia", "question": "q", "answer": "甲应当做A", "split": "test", "origin": "v2"}
	q2 := v2q(2, "D2", "direct", "test", "v2", str("甲应当做A"), false)
	q2.Raw = map[string]any{"id": "D2", "category": "direct", "question": "q", "answer": "甲应当做A", "split": "test", "origin": "v2"}
	q3 := v2q(3, "D3", "trivia", "test", "v2", str("甲应当做A"), false)
	ds := &dataset.Dataset{V2: []dataset.Rec[model.V2Question]{q1, q2, q3},
		Findings: finding.List{{Code: "schema.enum", Path: "q.jsonl", Line: 1, Pointer: "/category"}}}
	got := codesAt(Rules(withFiles(ds), Options{}), "v2.quota", "v2.split-counts", "v2.clause-index-missing")
	// line 1: category covered by schema.enum; line 2: provenance key absent
	// (schema.required); line 3: built without raw JSON or schema findings.
	if want := "q.jsonl:3:v2.category"; strings.Join(got, ",") != want {
		t.Errorf("got %v, want %s", got, want)
	}
}

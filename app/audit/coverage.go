package audit

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"eval752/app/dataset"
	"eval752/app/model"
	"eval752/app/report"
)

// Coverage and design tables: where the citations land (seed 002's coverage
// table), what each split holds, and what differences a split's size can
// detect.

func txt(s string) report.Cell { return report.Cell{Text: s} }

func num(v float64, digits int) report.Cell {
	return report.Cell{Value: report.F(v), Digits: digits}
}

func count(n int) report.Cell { return report.Cell{Value: report.F(float64(n)), Int: true} }

func pct(n, d int) report.Cell {
	if d == 0 {
		return report.Cell{Text: "–"}
	}
	return report.Cell{Value: report.F(100 * float64(n) / float64(d)), Digits: 1, N: report.I(n), Denom: report.I(d)}
}

// docCoverageTable is seed 002's table: per document of the clause index,
// its clause numbers (deduplicated), how many are cited, and its share of
// all citations.
func docCoverageTable(ds *dataset.Dataset, qs []dataset.Rec[model.V2Question]) report.Table {
	type drow struct {
		title   string
		clauses map[string]bool
		covered map[string]bool
		cites   int
	}
	rows := map[string]*drow{}
	var order []string
	get := func(doc string) *drow {
		r := rows[doc]
		if r == nil {
			r = &drow{clauses: map[string]bool{}, covered: map[string]bool{}}
			rows[doc] = r
			order = append(order, doc)
		}
		return r
	}
	for _, c := range ds.Clauses {
		if !c.Typed || c.V.Doc == "" {
			continue
		}
		r := get(c.V.Doc)
		if r.title == "" {
			r.title = c.V.DocTitle
		}
		if c.V.Clause != "" {
			r.clauses[clauseNo(c.V.Clause)] = true
		}
	}
	total := 0
	for _, q := range qs {
		for _, p := range q.V.Provenance {
			if p.Doc == "" {
				continue
			}
			r := get(p.Doc)
			r.cites++
			total++
			if n := clauseNo(p.Clause); r.clauses[n] {
				r.covered[n] = true
			}
		}
	}
	t := report.Table{ID: "clause-coverage", Title: "Clause coverage per document (seed 002 testset-coverage)",
		Columns: []report.Column{
			{Key: "doc", Label: "document"}, {Key: "title", Label: "title"},
			{Key: "clauses", Label: "clauses (dedup.)", Help: "distinct clause numbers in the index"},
			{Key: "covered", Label: "covered", Help: "distinct clause numbers cited by at least one question"},
			{Key: "covered_pct", Label: "covered %"},
			{Key: "citations", Label: "citations", Help: "provenance entries citing the document"},
			{Key: "share", Label: "share of citations %"},
		}}
	tc, tv := 0, 0
	for _, d := range order {
		r := rows[d]
		title := r.title
		if len(r.clauses) == 0 && r.cites == 0 {
			title += " (distractor: no clause numbers)"
		}
		t.Rows = append(t.Rows, []report.Cell{txt(d), txt(strings.TrimSpace(title)), count(len(r.clauses)), count(len(r.covered)),
			pct(len(r.covered), len(r.clauses)), count(r.cites), pct(r.cites, total)})
		tc += len(r.clauses)
		tv += len(r.covered)
	}
	t.Rows = append(t.Rows, []report.Cell{txt("total"), txt(""), count(tc), count(tv), pct(tv, tc), count(total), pct(total, total)})
	t.Notes = append(t.Notes, "Clauses are counted once per clause number (a number carrying several bodies counts once); citations count every provenance entry.")
	return t
}

// concentrationTable shows the top document's share per stratum.
func concentrationTable(qs []dataset.Rec[model.V2Question], opt Options) report.Table {
	t := report.Table{ID: "concentration", Title: "Document concentration (share of citations from the most cited document)",
		Columns: []report.Column{{Key: "stratum", Label: "stratum"}, {Key: "citations", Label: "citations"},
			{Key: "top", Label: "top document"}, {Key: "share", Label: "share %"}}}
	type st struct {
		name string
		keep func(model.V2Question) bool
		rule bool
	}
	strata := []st{}
	for _, s := range citationStrata {
		s := s
		strata = append(strata, st{s.name, func(q model.V2Question) bool { return s.origin == "" || q.Origin == s.origin }, true})
	}
	for _, sp := range []string{"dev", "test"} {
		sp := sp
		strata = append(strata, st{"split " + sp, func(q model.V2Question) bool { return q.Split == sp }, false})
	}
	for _, s := range strata {
		per, total := docShares(qs, s.keep)
		if total == 0 {
			continue
		}
		d, n := topDoc(per)
		c := pct(n, total)
		if s.rule && opt.ConcentrationBound >= 0 {
			c.Threshold = fmt.Sprintf("≤ %.0f %%", 100*opt.ConcentrationBound)
			if total >= opt.ConcentrationMin {
				c.Pass = report.B(float64(n)/float64(total) <= opt.ConcentrationBound)
			}
		}
		t.Rows = append(t.Rows, []report.Cell{txt(s.name), count(total), txt(d), c})
	}
	t.Notes = append(t.Notes, "Split rows are informative (seed 002: dev 64 %, test 46 %): a different document mix means dev-tuned settings transfer only in relative terms.")
	return t
}

// splitDesignTable: per split and category, the count and the mean answer
// length in characters (whitespace excluded; seed 002 reports 54.5 for
// direct and 98.4 for cross on test).
func splitDesignTable(qs []dataset.Rec[model.V2Question]) report.Table {
	t := report.Table{ID: "split-design", Title: "Questions per split and category (v2)",
		Columns: []report.Column{{Key: "split", Label: "split"}, {Key: "category", Label: "category"},
			{Key: "n", Label: "questions"}, {Key: "v1", Label: "of which v1"},
			{Key: "answer_len", Label: "mean answer length (chars)", Help: "characters without whitespace, over questions with a non-refusal answer"}}}
	type agg struct{ n, v1, withAns, chars int }
	per := map[[2]string]*agg{}
	splits := map[string]bool{}
	for _, q := range qs {
		k := [2]string{q.V.Split, q.V.Category}
		splits[q.V.Split] = true
		a := per[k]
		if a == nil {
			a = &agg{}
			per[k] = a
		}
		a.n++
		if q.V.Origin == "v1" {
			a.v1++
		}
		if q.V.Answer != nil && q.V.Category != model.CategoryRefuse {
			a.withAns++
			a.chars += runeLen(*q.V.Answer)
		}
	}
	for _, s := range slices.Sorted(maps.Keys(splits)) {
		cats := append([]string{}, Categories...)
		for k := range per {
			if k[0] == s && !knownCategory(k[1]) {
				cats = append(cats, k[1])
			}
		}
		tot := agg{}
		for _, c := range cats {
			a := per[[2]string{s, c}]
			if a == nil {
				a = &agg{}
			}
			tot.n += a.n
			tot.v1 += a.v1
			tot.withAns += a.withAns
			tot.chars += a.chars
			t.Rows = append(t.Rows, []report.Cell{txt(nonEmpty(s)), txt(nonEmpty(c)), count(a.n), count(a.v1), meanLen(a.chars, a.withAns)})
		}
		t.Rows = append(t.Rows, []report.Cell{txt(nonEmpty(s)), txt("all"), count(tot.n), count(tot.v1), meanLen(tot.chars, tot.withAns)})
	}
	return t
}

func meanLen(chars, n int) report.Cell {
	if n == 0 {
		return txt("–")
	}
	c := num(float64(chars)/float64(n), 1)
	c.N = report.I(n)
	return c
}

// resolution is the half-width of the 95 % normal interval of a proportion
// p measured on n independent questions, in percentage points:
//
//	± 100 · 1.96 · √(p(1−p)/n)
//
// Seed 002: p ≈ 0.8, n ≈ 150 → ± 6 pp. Two independent proportions differ
// detectably only beyond roughly √2 times this; paired tests do better.
func resolution(p float64, n int) float64 {
	if n <= 0 {
		return math.NaN()
	}
	return 100 * 1.96 * math.Sqrt(p*(1-p)/float64(n))
}

func resolutionTable(qs []query, opt Options) report.Table {
	t := report.Table{ID: "resolution", Title: fmt.Sprintf("What a split can detect (95 %% interval at p ≈ %.2f)", opt.ResolutionP),
		Columns: []report.Column{{Key: "set", Label: "set"}, {Key: "split", Label: "split"}, {Key: "n", Label: "questions"},
			{Key: "pm", Label: "± pp", Help: "100·1.96·√(p(1−p)/n)"}}}
	per := map[[2]string]int{}
	for _, q := range qs {
		per[[2]string{string(q.Format), q.Split}]++
	}
	for _, k := range sortedPairs(per) {
		t.Rows = append(t.Rows, []report.Cell{txt(k[0]), txt(nonEmpty(k[1])), count(per[k]), num(resolution(opt.ResolutionP, per[k]), 1)})
	}
	t.Notes = append(t.Notes, "A difference between two systems smaller than this cannot be told from noise by comparing two independent accuracies; compare paired (bootstrap, McNemar) on the same questions instead (seed 002).")
	return t
}

// Seed 003 §4.1 question-type targets. Each row lists the question_type
// values (lower-cased, '-' and ' ' read as '_') that map to it; an
// unanswerable question (answerable: false) always counts in the last row.
var typeRows = []struct {
	label  string
	target float64
	names  []string
}{
	{"直接事实、术语定义 (direct fact, definition)", 0.20, []string{"direct", "fact", "factoid", "direct_fact", "definition", "term", "terminology", "term_definition", "直接事实", "术语定义"}},
	{"数值、钻孔、表格 (numeric, drill hole, table)", 0.20, []string{"numeric", "number", "table", "table_numeric", "numeric_table", "drillhole", "drill_hole", "borehole", "数值", "钻孔", "表格"}},
	{"地层—构造—矿化关系 (strata–structure–mineralisation)", 0.15, []string{"relation", "relationship", "geological_relation", "stratigraphy", "structure", "mineralization", "mineralisation", "strata_structure_mineralization", "地层构造矿化关系"}},
	{"多证据、多跳推理 (multi-evidence, multi-hop)", 0.15, []string{"multi_hop", "multihop", "multi_evidence", "reasoning", "multi_hop_reasoning", "多跳", "多证据"}},
	{"区域或矿床比较 (regional / deposit comparison)", 0.10, []string{"comparison", "compare", "regional_comparison", "deposit_comparison", "比较"}},
	{"找矿方法与工作流程 (exploration method, workflow)", 0.10, []string{"method", "methods", "workflow", "procedure", "process", "exploration_method", "找矿方法", "工作流程"}},
	{"无答案、歧义或冲突 (unanswerable, ambiguous, conflict)", 0.10, []string{"unanswerable", "no_answer", "ambiguous", "ambiguity", "conflict", "conflicting", "negative", "无答案", "歧义", "冲突"}},
}

func typeRow(qt string, answerable bool) int {
	if !answerable {
		return len(typeRows) - 1
	}
	k := strings.ToLower(strings.TrimSpace(qt))
	k = strings.NewReplacer("-", "_", " ", "_").Replace(k)
	for i, r := range typeRows {
		for _, n := range r.names {
			if k == n {
				return i
			}
		}
	}
	return -1
}

// questionTypeTable compares seed-003 question_type shares with §4.1.
func questionTypeTable(ds *dataset.Dataset) (report.Table, bool) {
	t := report.Table{ID: "question-types", Title: "Question types against seed 003 §4.1 targets",
		Columns: []report.Column{{Key: "type", Label: "type"}, {Key: "target", Label: "target %"},
			{Key: "n", Label: "questions"}, {Key: "share", Label: "share %"}, {Key: "diff", Label: "difference pp"}}}
	counts := make([]int, len(typeRows))
	unknown := map[string]int{}
	total := 0
	for _, r := range ds.RAG {
		if !r.Typed {
			continue
		}
		total++
		if i := typeRow(r.V.QuestionType, r.V.Answerable); i >= 0 {
			counts[i]++
		} else {
			unknown[nonEmpty(r.V.QuestionType)]++
		}
	}
	if total == 0 {
		return t, false
	}
	for i, r := range typeRows {
		share := 100 * float64(counts[i]) / float64(total)
		t.Rows = append(t.Rows, []report.Cell{txt(r.label), num(100*r.target, 0), count(counts[i]), pct(counts[i], total), num(share-100*r.target, 1)})
	}
	if len(unknown) > 0 {
		var us []string
		for _, k := range slices.Sorted(maps.Keys(unknown)) {
			us = append(us, fmt.Sprintf("%s (%d)", k, unknown[k]))
		}
		t.Notes = append(t.Notes, "question_type values not mapped to a §4.1 row: "+strings.Join(us, ", ")+"; they count in the denominator only.")
	}
	t.Notes = append(t.Notes, "Mapping: see docs/audit.md; answerable=false always counts as 无答案.")
	return t, true
}

// ragSplitTable counts seed-003 questions per split and question_type.
func ragSplitTable(ds *dataset.Dataset) (report.Table, bool) {
	t := report.Table{ID: "rag-split-design", Title: "Questions per split and question type (seed 003)",
		Columns: []report.Column{{Key: "split", Label: "split"}, {Key: "type", Label: "question_type"}, {Key: "n", Label: "questions"},
			{Key: "unanswerable", Label: "unanswerable"}, {Key: "answer_len", Label: "mean reference answer length (chars)"}}}
	type agg struct{ n, un, withAns, chars int }
	per := map[[2]string]*agg{}
	for _, r := range ds.RAG {
		if !r.Typed {
			continue
		}
		k := [2]string{r.V.Split, r.V.QuestionType}
		a := per[k]
		if a == nil {
			a = &agg{}
			per[k] = a
		}
		a.n++
		if !r.V.Answerable {
			a.un++
		}
		if r.V.ReferenceAnswer != nil && r.V.Answerable {
			a.withAns++
			a.chars += runeLen(*r.V.ReferenceAnswer)
		}
	}
	if len(per) == 0 {
		return t, false
	}
	for _, k := range sortedPairs(per) {
		a := per[k]
		t.Rows = append(t.Rows, []report.Cell{txt(nonEmpty(k[0])), txt(nonEmpty(k[1])), count(a.n), count(a.un), meanLen(a.chars, a.withAns)})
	}
	return t, true
}

// sortedPairs returns m's (set, split)-style keys ordered by the first
// string, then the second, so table rows come out in the same order on every
// run.
func sortedPairs[V any](m map[[2]string]V) [][2]string {
	return slices.SortedFunc(maps.Keys(m), func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
}

// Package audit is eval752's set-design audit (SPEC §3 gate 3 and the
// refusal audit): a benchmark can be well-formed and still worthless, so this
// package checks how a set was designed rather than how its lines are
// written.
//
//   - Seed 002's three gates as registered rules (family "v2"): required
//     fields, category quotas, provenance in the clause index, cross shape,
//     verbatim answers, duplicate clause numbers, clause reuse, v1/test
//     split rules, 4-gram coverage of v1 paraphrases, document concentration
//     (Rules, and Draft for one category at a time).
//   - The refusal audit (seed 002 "拒答题要审计"): each refuse question's most
//     similar corpus passage by idf²-weighted character n-gram coverage.
//   - Leakage (seed 003 §3.3, §4.5): exact and MinHash near duplicates
//     across splits, duplicate families across splits, gold answers inside
//     the retrievable corpus.
//   - Coverage and design tables.
//
// Audit returns all of it as one report.Report (Kind "audit") plus the
// findings. Everything is deterministic: MinHash seeds come from Options.Seed
// and every table is sorted.
package audit

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/report"
	"eval752/app/version"
)

// Audit runs the gates, the refusal audit, the leakage checks and the
// coverage tables on ds. The findings are Rules' findings plus those of the
// refusal audit and the leakage checks (sorted, de-duplicated); ds.Findings
// (reading and schema findings) are not included. The report is nil only
// when ds is nil.
func Audit(ds *dataset.Dataset, opt Options) (*report.Report, finding.List) {
	return AuditProgress(ds, opt, nil)
}

// auditSteps is how many steps AuditProgress tells: the rules, the refusal
// audit, the leakage search, the report's tables.
const auditSteps = 4

// AuditProgress is Audit telling progress, when not nil, how many of its
// steps are done (0 of auditSteps first, auditSteps of auditSteps last).
func AuditProgress(ds *dataset.Dataset, opt Options, progress func(done, total int)) (*report.Report, finding.List) {
	if ds == nil {
		return nil, nil
	}
	step := func(done int) {
		if progress != nil {
			progress(done, auditSteps)
		}
	}
	step(0)
	opt = opt.withDefaults()
	var fs finding.List
	fs = append(fs, Rules(ds, opt)...)
	step(1)
	qs := queries(ds)
	ps := corpusPassages(ds)
	ref, rf := refusalAudit(ds, qs, ps, opt)
	fs = append(fs, rf...)
	step(2)
	pairs, lf, ok := isolationMemo.take(ds, leakKeyOf(opt)) // computed by SplitIsolation during validation
	if !ok {
		pairs, lf = leakage(ds, qs, ps, opt)
	}
	fs = append(fs, lf...)
	fs = fs.Normalize()
	step(3)

	r := &report.Report{
		Kind:   "audit",
		Title:  "Set-design audit",
		Tool:   report.Tool{Name: version.Name, Version: version.Version},
		Config: opt.config(),
		Inputs: append([]dataset.InputInfo(nil), ds.Inputs...),
	}
	r.Sections = append(r.Sections, gateSection(fs), refusalSection(ds, ref, opt), leakageSection(ds, pairs, opt))
	v2 := typedV2(ds)
	cov := report.Section{ID: "coverage", Title: "Coverage"}
	if len(v2) > 0 || len(ds.Clauses) > 0 {
		cov.Tables = append(cov.Tables, docCoverageTable(ds, v2))
	}
	if len(v2) > 0 {
		cov.Tables = append(cov.Tables, concentrationTable(v2, opt))
	}
	if len(cov.Tables) == 0 {
		cov.Notes = append(cov.Notes, "No v2 questions or clause index: no clause coverage to report.")
	}
	r.Sections = append(r.Sections, cov)
	design := report.Section{ID: "design", Title: "Set design"}
	if len(v2) > 0 {
		design.Tables = append(design.Tables, splitDesignTable(v2))
	}
	if t, ok := ragSplitTable(ds); ok {
		design.Tables = append(design.Tables, t)
	}
	if t, ok := questionTypeTable(ds); ok {
		design.Tables = append(design.Tables, t)
	}
	if len(qs) > 0 {
		design.Tables = append(design.Tables, resolutionTable(qs, opt))
	}
	r.Sections = append(r.Sections, design)
	step(auditSteps)
	return r, fs
}

// AuditRules lists the rules this package registers (families "v2" and
// "audit"), in registry order.
func AuditRules() []finding.Rule {
	var out []finding.Rule
	for _, r := range finding.Rules() {
		if r.Family == "v2" || r.Family == "audit" {
			out = append(out, r)
		}
	}
	return out
}

func gateSection(fs finding.List) report.Section {
	c := fs.Counts()
	s := report.Section{ID: "gates", Title: "Gates and checks",
		Text: []string{fmt.Sprintf("%d error(s), %d warning(s), %d info finding(s) from the audit rules.", c.Error, c.Warning, c.Info)}}
	per := map[string]int{}
	for _, f := range fs {
		per[f.Code]++
	}
	t := report.Table{ID: "rules", Title: "Findings per rule",
		Columns: []report.Column{{Key: "code", Label: "rule"}, {Key: "severity", Label: "severity"}, {Key: "count", Label: "findings"}, {Key: "description", Label: "checks"}}}
	for _, r := range AuditRules() {
		if r.Code == ruleDraftSkipped.Code {
			continue
		}
		cell := count(per[r.Code])
		if r.Severity != finding.Info {
			cell.Pass = report.B(per[r.Code] == 0)
		}
		t.Rows = append(t.Rows, []report.Cell{txt(r.Code), txt(r.Severity.String()), cell, txt(r.Description)})
	}
	s.Tables = append(s.Tables, t)
	return s
}

func refusalSection(ds *dataset.Dataset, ref refusalResult, opt Options) report.Section {
	s := report.Section{ID: "refusal", Title: "Refusal audit",
		Text: []string{fmt.Sprintf("Each refuse / unanswerable question is a query against %d corpus passage(s); similarity is the share of the question's character %s-grams that its closest passage holds, each weighted by idf² so that rare terms count most (0 = nothing in common, 1 = every n-gram of the question is in the passage). Questions at or above %.2f are flagged for a human to read the passage. The scale is lexical, not an embedding cosine: seed 002's 0.65 does not carry over.",
			ref.Passages, gramsLabel(opt.SimilarityGrams), opt.RefusalThreshold)}}
	dist := report.Table{ID: "refusal-distribution", Title: "Top-1 similarity by answerability",
		Columns: []report.Column{{Key: "group", Label: "questions"}, {Key: "n", Label: "n"}, {Key: "median", Label: "median"},
			{Key: "p5", Label: "p5"}, {Key: "p90", Label: "p90"}, {Key: "max", Label: "max"}}}
	var refuse []float64
	for _, r := range ref.Refuse {
		refuse = append(refuse, r.Sim)
	}
	for _, g := range []struct {
		name string
		x    []float64
	}{{"answerable", ref.Answerable}, {"refuse / unanswerable", refuse}} {
		row := []report.Cell{txt(g.name), count(len(g.x))}
		if len(g.x) == 0 {
			row = append(row, txt("–"), txt("–"), txt("–"), txt("–"))
		} else {
			x := append([]float64(nil), g.x...)
			sort.Float64s(x)
			row = append(row, num(quantile7(x, 0.5), 3), num(quantile7(x, 0.05), 3), num(quantile7(x, 0.9), 3), num(x[len(x)-1], 3))
		}
		dist.Rows = append(dist.Rows, row)
	}
	dist.Notes = append(dist.Notes, "Quantiles interpolate linearly between order statistics (type 7). The distributions overlap: the threshold narrows the review, it does not decide (seed 002).")
	rank := report.Table{ID: "refusal-ranking", Title: "Refuse questions ranked by similarity to their closest passage",
		Columns: []report.Column{{Key: "rank", Label: "#"}, {Key: "id", Label: "question"}, {Key: "where", Label: "where"},
			{Key: "split", Label: "split"}, {Key: "text", Label: "question text"}, {Key: "sim", Label: "similarity"},
			{Key: "passage_id", Label: "closest passage"}, {Key: "passage", Label: "passage text"}, {Key: "flag", Label: "review"}}}
	for i, r := range ref.Refuse {
		pid, ptext := "–", ""
		if r.Passage != nil {
			pid = r.Passage.ID
			ptext = clip(r.Passage.Text, opt.PassageChars)
		}
		sim := num(r.Sim, 3)
		flag := ""
		if r.Flagged {
			flag = "REVIEW"
		}
		rank.Rows = append(rank.Rows, []report.Cell{count(i + 1), txt(r.Q.ID), txt(locString(ds, r.Q.Loc)), txt(nonEmpty(r.Q.Split)),
			txt(clip(r.Q.Text, 80)), sim, txt(pid), txt(ptext), txt(flag)})
	}
	s.Tables = append(s.Tables, dist, rank)
	if len(ref.Queue) > 0 {
		s.Tables = append(s.Tables, queueTable(ds, ref, opt))
		s.Text = append(s.Text, queueSummary(ref))
	}
	switch {
	case ref.NRefuse > 0 && ref.Passages == 0:
		s.Notes = append(s.Notes, fmt.Sprintf("%d refuse / unanswerable question(s), but no corpus passage was loaded: nothing to compare them with (load clauses, chunks, document texts or atom texts).", ref.NRefuse))
	case len(ref.Refuse) == 0:
		s.Notes = append(s.Notes, "No refuse / unanswerable questions.")
	}
	return s
}

// queueTable is the review queue: every refuse question ranked by the
// fusion of its signals' ranks, with its best passages side by side.
func queueTable(ds *dataset.Dataset, ref refusalResult, opt Options) report.Table {
	cols := []report.Column{{Key: "rank", Label: "#"}, {Key: "id", Label: "question"}, {Key: "where", Label: "where"},
		{Key: "split", Label: "split"}, {Key: "text", Label: "question text"},
		{Key: "fused", Label: "fused", Help: "Σ over the signals of 1/(60 + the question's rank by that signal)"}}
	for _, name := range queueSignals {
		cols = append(cols, report.Column{Key: name, Label: name, Help: signalHelp[name]})
	}
	for k := 1; k <= queueShown; k++ {
		n := strconv.Itoa(k)
		cols = append(cols, report.Column{Key: "passage_" + n, Label: "passage " + n, Help: "passage id (ngram · bm25 · rare · values)"})
		if k == 1 {
			cols = append(cols, report.Column{Key: "passage_1_text", Label: "passage 1 text"})
		}
	}
	cols = append(cols, report.Column{Key: "review", Label: "review"})
	t := report.Table{ID: "refusal-queue", Title: "Review queue: refuse questions ranked by fused signals", Columns: cols}
	for i, r := range ref.Queue {
		row := []report.Cell{count(i + 1), txt(r.Q.ID), txt(locString(ds, r.Q.Loc)), txt(nonEmpty(r.Q.Split)), txt(clip(r.Q.Text, 80)), num(r.Fused, 4)}
		for _, v := range r.Signals {
			row = append(row, num(v, 3))
		}
		for k := 0; k < queueShown; k++ {
			cell, text := "–", ""
			if k < len(r.Top) {
				p := ref.Candidates[r.Top[k].Index]
				sc := r.Top[k].Scores
				cell = fmt.Sprintf("%s (%.3f · %.3f · %.3f · %.3f)", p.ID, sc[0], sc[1], sc[2], sc[3])
				text = clip(p.Text, opt.PassageChars)
			}
			row = append(row, txt(cell))
			if k == 0 {
				row = append(row, txt(text))
			}
		}
		review := verdictLabel(r.Verdict)
		if r.Flagged {
			review = strings.TrimSpace("REVIEW " + review)
		}
		row = append(row, txt(review))
		t.Rows = append(t.Rows, row)
	}
	t.Notes = append(t.Notes, "Signals (docs/audit.md): ngram = the similarity of the threshold; bm25 = word-level BM25 (Han character bigrams, Latin words, numbers) divided by its upper bound; rare = the idf-weighted share of the question's rare corpus terms the passage holds; values = for a question asking for parameters or values, bm25 times the passage's numbers with units (min(1, n/3)). Each question's signal is its best passage's; the queue orders by reciprocal rank fusion (k = 60). Passages are ranked the same way within a question.")
	return t
}

var signalHelp = map[string]string{
	"ngram":  "idf²-weighted coverage of the question's character 2/3-grams (the threshold's similarity)",
	"bm25":   "word-level BM25 (k1 1.2, b 0.75) over Han bigrams and Latin words, divided by Σ idf·(k1+1)",
	"rare":   "idf-weighted share of the question's rare corpus terms (1 ≤ df ≤ max(2, ⌈N/10⌉)) in the passage",
	"values": "question asks for values (cue list) × min(1, numbers with units / 3) × bm25",
}

// queueSummary says how far down the queue a reviewer reads to see every
// flagged question.
func queueSummary(ref refusalResult) string {
	flagged, last, reviewed := 0, 0, 0
	for i, r := range ref.Queue {
		if r.Flagged {
			flagged++
			last = i + 1
		}
		if r.Verdict != nil {
			reviewed++
		}
	}
	n := len(ref.Queue)
	s := fmt.Sprintf("Review queue: %d question(s), %d with a recorded verdict. ", n, reviewed)
	if flagged == 0 {
		return s + "No question is flagged by the threshold; read from the top of the queue as far as your budget allows."
	}
	return s + fmt.Sprintf("Reading from the top, a reviewer sees all %d flagged question(s) after %d of %d row(s) (%.1f %% of the queue); questions below the threshold can still be answerable, and the queue ranks them by signals that do not need the question's wording.",
		flagged, last, n, 100*float64(last)/float64(n))
}

func leakageSection(ds *dataset.Dataset, pairs []leakPair, opt Options) report.Section {
	s := report.Section{ID: "leakage", Title: "Leakage",
		Text: []string{fmt.Sprintf("Pairs across splits: exact (SHA-256 of the text without whitespace and punctuation) or near (MinHash Jaccard over character shingles: documents ≥ %.2f, chunks ≥ %.2f, questions ≥ %.2f), duplicate families split across splits, and gold answers found in retrievable passages.",
			opt.DocNear, opt.ChunkNear, opt.QuestionNear)}}
	t := report.Table{ID: "leak-pairs", Title: "Pairs, side by side",
		Columns: []report.Column{{Key: "kind", Label: "kind"}, {Key: "rule", Label: "rule"}, {Key: "sim", Label: "similarity"},
			{Key: "left", Label: "left"}, {Key: "left_split", Label: "split"}, {Key: "left_text", Label: "left text"},
			{Key: "right", Label: "right"}, {Key: "right_split", Label: "split"}, {Key: "right_text", Label: "right text"}}}
	for _, p := range pairs {
		sim := num(p.Sim, 2)
		if p.Exact {
			sim.Flag = "exact"
		}
		t.Rows = append(t.Rows, []report.Cell{txt(p.Kind), txt(p.Code), sim,
			txt(p.LeftID + " (" + locString(ds, p.LeftLoc) + ")"), txt(nonEmpty(p.LeftSplit)), txt(clip(p.LeftText, opt.PassageChars)),
			txt(p.RightID + " (" + locString(ds, p.RightLoc) + ")"), txt(nonEmpty(p.RightSplit)), txt(clip(p.RightText, opt.PassageChars))})
	}
	s.Tables = append(s.Tables, t)
	if len(pairs) == 0 {
		s.Notes = append(s.Notes, "No leakage pair found.")
	}
	return s
}

// gramsLabel writes n-gram lengths as "2/3".
func gramsLabel(gs []int) string {
	s := make([]string, len(gs))
	for i, g := range gs {
		s[i] = strconv.Itoa(g)
	}
	return strings.Join(s, "/")
}
